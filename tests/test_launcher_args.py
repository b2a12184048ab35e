"""Issue 13/14: generated launchers take arguments as torch does (same exception types),
never drop a gradient silently, compute any size on cuda (ascend refuses what its int32
offsets cannot hold, before launching), and keep the interpreter's numpy warnings to themselves; batch-invariant
mode routes var/std/argmax/argmin.

The modules are built from the current templates into a temp dir (no interpreter check),
so these tests follow the templates, not the committed generated/.
"""

from __future__ import annotations

import os

os.environ["TRITON_INTERPRET"] = "1"

import subprocess  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

import redgen  # noqa: E402
from redgen.cli import main  # noqa: E402
from redgen.runtime.loader import load_module  # noqa: E402
from tests.tolerances import TOLERANCE  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
F32 = TOLERANCE[torch.float32]
OPS = ("mean", "sum", "layer_norm", "rms_norm", "softmax", "argmax", "var", "logsumexp")


@pytest.fixture(scope="module")
def gen(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gen")
    for op in OPS:
        assert main(["build", str(ROOT / "specs" / f"{op}.red"), "--target", "cuda", "--out", str(out),
                     "--no-empirical", "-q"]) == 0
    return out


def _fn(gen: Path, op: str):
    return redgen.load(op, "cuda", root=gen)


def _x(*shape):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(0))


# --- dim / keepdim / params ------------------------------------------------------------
@pytest.mark.parametrize("bad", [1.0, True, [1.0], (True,), "1"])
def test_dim_of_another_type_is_refused_even_after_a_cached_call(gen, bad):
    mean = _fn(gen, "mean")
    x = _x(3, 5)
    mean(x, 1)  # the shape cache now holds dim=1
    with pytest.raises(TypeError):
        torch.mean(x, bad)
    with pytest.raises(TypeError):
        mean(x, bad)


def test_numpy_and_tensor_ints_are_dims_like_in_torch(gen):
    np = pytest.importorskip("numpy")
    mean = _fn(gen, "mean")
    x = _x(3, 5)
    assert torch.equal(mean(x, np.int64(1)), mean(x, 1))


@pytest.mark.parametrize("keepdim", ["yes", 1, None])
def test_keepdim_must_be_a_bool(gen, keepdim):
    with pytest.raises(TypeError):
        torch.sum(_x(3, 5), 1, keepdim=keepdim)
    with pytest.raises(TypeError):
        _fn(gen, "sum")(_x(3, 5), 1, keepdim=keepdim)


def test_params_as_torch_takes_them(gen):
    ln = _fn(gen, "layer_norm")
    x, w, b = _x(4, 8), _x(8), _x(8)
    with pytest.raises(TypeError):
        torch.nn.functional.layer_norm(x, (8,), w, b, eps="1e-5")
    with pytest.raises(TypeError):
        ln(x, w, b, eps="1e-5")
    with pytest.raises(TypeError):
        ln(x, w, b, eps=[1e-5])
    # None is the default, as torch's optional eps
    assert torch.equal(ln(x, w, b, eps=None)[0], ln(x, w, b)[0])
    assert torch.equal(ln(x, w, b, eps=1)[0], ln(x, w, b, eps=1.0)[0])


def test_weight_of_another_dtype_is_a_runtime_error_like_torch(gen):
    x, w, b = _x(4, 8), _x(8).half(), _x(8)
    with pytest.raises(RuntimeError):
        torch.nn.functional.layer_norm(x, (8,), w, b)
    with pytest.raises(RuntimeError):
        _fn(gen, "layer_norm")(x, w, b)
    with pytest.raises(RuntimeError):
        _fn(gen, "rms_norm")(x, w)


def test_none_weight_and_bias_compute_like_torch(gen):
    x = _x(4, 8)
    rtol = atol = F32
    y = _fn(gen, "layer_norm")(x, None, None)[0]
    torch.testing.assert_close(y, torch.nn.functional.layer_norm(x, (8,)), rtol=rtol, atol=atol)
    y = _fn(gen, "rms_norm")(x, None)
    torch.testing.assert_close(y, torch.nn.functional.rms_norm(x, (8,)), rtol=rtol, atol=atol)
    # exactly a weight of ones and a bias of zeros
    ones, zeros = torch.ones(8), torch.zeros(8)
    assert torch.equal(_fn(gen, "layer_norm")(x, None, None)[0], _fn(gen, "layer_norm")(x, ones, zeros)[0])


# --- autograd ----------------------------------------------------------------------------------
@pytest.mark.parametrize("op", ["mean", "softmax", "layer_norm"])
def test_a_direct_call_never_drops_a_gradient(gen, op):
    fn = _fn(gen, op)
    x = _x(3, 8).requires_grad_()
    args = (x, None, None) if op == "layer_norm" else (x,)
    with pytest.raises(RuntimeError, match="requires grad"):
        fn(*args, dim=1) if op != "layer_norm" else fn(*args)
    with torch.no_grad():  # inference: fine
        fn(*args, dim=1) if op != "layer_norm" else fn(*args)


def test_batch_invariant_mode_keeps_torchs_gradients():
    x = _x(3, 8).double().float().requires_grad_()
    with redgen.batch_invariant():
        y = torch.nn.functional.layer_norm(x, (8,))
        assert y.grad_fn is not None
        (g,) = torch.autograd.grad((y * torch.arange(8.0)).sum(), x)
    x2 = x.detach().clone().requires_grad_()
    (g2,) = torch.autograd.grad((torch.nn.functional.layer_norm(x2, (8,)) * torch.arange(8.0)).sum(), x2)
    torch.testing.assert_close(g, g2, rtol=F32, atol=F32)


def test_batch_invariant_mode_gradcheck_of_log_softmax():
    x = _x(2, 6).double().requires_grad_()

    def f(t):
        # float64 falls back to torch inside the mode: gradcheck runs the f32 kernel on a cast
        return torch.log_softmax(t.float(), 1).double()

    with redgen.batch_invariant(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.autograd.gradcheck(f, (x,), eps=1e-3, atol=1e-3, rtol=1e-2)


# --- sizes -------------------------------------------------------------------------------------
# cuda computes every size a GPU holds (int64 index arithmetic where the sizes need it, chunks on
# grid axis 0, grids of more than 2**31 - 1 programs in slices); the interpreter cannot hold
# 2**31 elements, so the decisions are checked from sizes alone (_schedule, a launch spy) and
# the int64 kernels on small shapes, bitwise against the int32 ones.
BIG = 2**31 + 5


def test_schedule_from_sizes_alone(gen):
    mod = load_module("sum", "cuda", root=gen)
    # (chunk, num_chunks, shape, block, programs, warps, split, wide)
    # rows of 9000 (three chunks): held by the row kernel (ROW_MIN to ROW_MAX_TILES tiles), no split
    assert mod._schedule(4, 9000, 1, 4) == (4096, 3, "row", 1, 4, 4, False, False)
    # rows of 40000 (ten chunks, past what the row kernel holds): the split path on 4 programs
    assert mod._schedule(4, 40000, 1, 4) == (4096, 10, "rows", 1, 4, 4, True, False)
    # (1, 2**31 + 5): 524289 chunks, more than grid axis 1 holds: split, chunks on axis 0, int64
    assert mod._schedule(1, BIG, 1, 4) == (4096, 524289, "rows", 1, 1, 4, True, True)
    # x.sum() of 2**28 + 1 elements (65537 chunks): the split path, int32 still enough
    assert mod._schedule(1, 2**28 + 1, 1, 4)[6:] == (True, False)
    # int32 up to the last size whose largest index (N + CHUNK + LANES) fits; int64 from there
    edge = 2**31 - 1 - 4096 - 256
    assert not mod._schedule(1, edge, 1, 4)[7] and mod._schedule(1, edge + 1, 1, 4)[7]
    # 2**31 + 5 rows of one element: programs of 256 rows (a short row's walk), the fused path, int64
    assert mod._schedule(BIG, 1, 1, 4) == (4096, 1, "rows", 256, -(-BIG // 256), 4, False, True)  # 256 rows of 8 lanes
    # [lanes, cols] kernel: 2**31 + 5 columns k
    # rows of at most COLS_STACK_N (512) on this many columns: the stack, COLS_STACK_BLOCK columns a
    # program at 4-byte elements up to LANES (256), else COLS_STACK_DEEP_BLOCK_BYTES of a row (512 f32,
    # 1024 bf16 columns; plan.py); else, of at most two tiles, 64 (plan.COLS_SHORT_BLOCK), longer ones
    # specs/sum.red's tile K = 32, 16-bit rows of one chunk on so many columns COLS_TILE_WIDE_BLOCK (64)
    for isz, block, tile in ((2, 1024, 64), (4, 256, 32)):
        assert mod._schedule(1, 2, BIG, isz)[2:] == ("cols", block, -(-BIG // block), 4, False, True)
        assert mod._schedule(1, 100, BIG, isz)[2:] == ("cols", block, -(-BIG // block), 4, False, True)
        assert mod._schedule(1, 256, BIG, isz)[2:] == ("cols", block, -(-BIG // block), 4, False, True)
        assert mod._schedule(1, 513, BIG, isz)[2:] == ("cols", tile, -(-BIG // tile), 4, False, True)
    assert mod._schedule(1, 300, BIG, 4)[2:] == ("cols", 512, -(-BIG // 512), 4, False, True)
    assert mod._schedule(1, 300, BIG, 2)[2:] == ("cols", 1024, -(-BIG // 1024), 4, False, True)
    # rows near the limit: R + BLOCK (or the finish pass's FINISH_BLOCK) must fit
    # (rows of one element: blocks of 256 rows, so R + 256)
    assert not mod._schedule(2**31 - 1 - 256, 1, 1, 4)[7] and mod._schedule(2**31 - 256, 1, 1, 4)[7]


class _Spy:
    """Stands for a kernel: records each launch's grid, WIDE (the last positional argument)
    and the one before it (the fused kernels' PID0, the others' NUM_CHUNKS), runs nothing."""

    def __init__(self):
        self.launches = []

    def __getitem__(self, grid):
        return lambda *args, **kw: self.launches.append((grid, args[-1], args[-2]))


@pytest.mark.parametrize("op", ["sum", "argmax"])
def test_sizes_beyond_int32_launch_with_int64_indices(gen, monkeypatch, op):
    mod = load_module(op, "cuda", root=gen)
    spies = {}
    for name in [n for n in vars(mod) if n.startswith("_k_")]:
        spies[name] = _Spy()
        monkeypatch.setattr(mod, name, spies[name])
    fn = getattr(mod, op)
    # a (1, 2**31 + 5) tensor without allocating 8 GB: an expanded view; nothing runs
    assert fn(torch.zeros(1).expand(1, BIG), 1).shape == (1,)
    assert spies["_k_rows_partial0"].launches == [((524289, 1), True, 524289)]  # NUM_CHUNKS last
    assert spies["_k_finish0"].launches[0][0:2] == ((1,), True)
    assert not spies["_k_rows_fused"].launches
    if op == "sum":  # x.sum() of every element
        assert fn(torch.zeros(1).expand(2, BIG)).shape == ()
        assert spies["_k_rows_partial0"].launches[-1][0] == (-(-2 * BIG // 4096), 1)


def test_more_programs_than_grid_axis_0_launch_in_slices(gen, monkeypatch):
    mod = load_module("sum", "cuda", root=gen)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    monkeypatch.setattr(mod, "SHORT_TILE_MAX", 0)  # a program a row (short rows otherwise share one)
    monkeypatch.setattr(mod, "_k_rows_fused", spy := _Spy())
    mod.sum(torch.zeros(1).expand(BIG, 3), 1)  # 2**31 + 5 programs of one row
    assert [(g, pid0) for g, _, pid0 in spy.launches] == [((2**31 - 1,), 0), ((6,), 2**31 - 1)]
    assert all(wide for _, wide, _ in spy.launches)


@pytest.mark.parametrize("op", ["sum", "mean", "argmax", "softmax", "var", "layer_norm"])
@pytest.mark.parametrize("path", ["split", "fused"])
def test_int64_indices_are_bitwise_the_int32_path(gen, monkeypatch, op, path):
    """WIDE changes integer index arithmetic only: forced on small shapes, every output is
    bitwise the int32 kernels' (rows and cols kernel shapes, split and fused paths)."""
    mod = load_module(op, "cuda", root=gen)
    fn = getattr(mod, op)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 1 << 62 if path == "split" else 0)
    x = _x(3, 9000, 2).to(torch.bfloat16)
    x[1, 8500] = 50.0  # argmax in the last chunk
    # dim 1 of [3, 9000]: the [rows, lanes] kernel; of [3, 9000, 2]: the [lanes, cols] kernel
    if op == "layer_norm":
        calls = [(x[:, :, 0].contiguous(), None, None), (x, None, None, 1)]
    else:
        calls = [(x[:, :, 0], 1), (x, 1)]
    narrow = [fn(*c) for c in calls]
    monkeypatch.setattr(mod, "_needs_int64", lambda *sizes: True)
    wide = [fn(*c) for c in calls]
    for a, b in zip(narrow, wide, strict=True):
        a, b = (a, b) if isinstance(a, tuple) else ((a,), (b,))  # layer_norm: (y, mean, rstd)
        assert len(a) == len(b) and all(torch.equal(u, v) for u, v in zip(a, b, strict=True))


def test_forcing_wide_is_never_served_by_a_narrow_binding(gen, monkeypatch):
    """On a GPU, _go reuses a bound launcher per positional signature: WIDE is positional
    (not in consts), so an int64 call never takes the int32 kernel bound for the same sizes."""
    mod = load_module("sum", "cuda", root=gen)
    log = []

    class Compiled:
        function, packed_metadata = "fn", "meta"

        def run(self, *a):
            log.append(("bound", a[-4]))  # WIDE, before the constexprs BLOCK, LANES, LOG2_LANES

    class Kernel:
        params = [type("P", (), {"name": n, "default": None})() for n in ("BLOCK", "LANES", "LOG2_LANES")]

        def __getitem__(self, grid):
            def launch(*args, **consts):
                log.append(("triton", args[-1]))
                return Compiled()
            return launch

    Kernel.params = [None] * 15 + Kernel.params  # 15 positional arguments, then the constexprs
    monkeypatch.setattr(mod, "_INTERPRET", False)
    monkeypatch.setattr(mod, "_raw_stream", lambda device: 7)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(mod, "_k_rows_fused", Kernel())
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    mod._BOUND.clear()
    x, out = _x(2, 50), torch.empty(2, 1)
    for _ in range(2):  # (the launch itself: the public function refuses CPU tensors on a "GPU")
        mod._launch(x, (50, 1, 1), out, 2, 50, 1)
    monkeypatch.setattr(mod, "_needs_int64", lambda *sizes: True)
    for _ in range(2):
        mod._launch(x, (50, 1, 1), out, 2, 50, 1)
    assert log == [("triton", False), ("bound", False), ("triton", True), ("bound", True)]
    mod._BOUND.clear()


def test_more_chunks_than_grid_axis_0_take_the_fused_path(gen, monkeypatch):
    mod = load_module("sum", "cuda", root=gen)
    x = _x(2, 9000)  # 3 chunks of 4096, 2 rows: the split path
    split = mod.sum(x, 1)
    monkeypatch.setattr(mod, "_MAX_GRID_0", 2)  # as if 3 chunks were more than CUDA's 2**31 - 1
    assert mod._schedule(2, 9000, 1, 4)[6] is False
    fused = mod.sum(x, 1)  # and 2 programs per slice on the fused path
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    assert torch.equal(split, fused) and torch.equal(fused, mod.sum(x, 1))
    monkeypatch.setattr(mod, "_MAX_GRID_0", 1)  # 2 programs in 2 slices of 1: PID0 = 0, 1
    assert torch.equal(split, mod.sum(x, 1))


@pytest.fixture(scope="module")
def ascend_gen(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gen_ascend")
    for op in ("sum", "argmax"):
        assert main(["build", str(ROOT / "specs" / f"{op}.red"), "--target", "ascend", "--out", str(out),
                     "--no-empirical", "-q"]) == 0
    return out


@pytest.mark.parametrize("op", ["sum", "argmax"])
@pytest.mark.parametrize("shape, dim", [((1, 2**31), 1), ((2**31, 1), 1), ((2, 2**31), 0)])
def test_ascend_refuses_sizes_beyond_int32_before_any_launch(ascend_gen, monkeypatch, op, shape, dim):
    mod = load_module(op, "ascend", root=ascend_gen)
    monkeypatch.setenv("REDGEN_ASCEND_CORES", "40")
    monkeypatch.setattr(mod, "_launch", lambda *a: pytest.fail("launched"))
    with pytest.raises(ValueError, match=r"ascend kernels .* int32"):
        getattr(mod, op)(torch.zeros(1).expand(*shape), dim)
    mod._check_size(op, 1, 2**31 - 1, 1)  # the largest it takes


# --- interpreter warnings ------------------------------------------------------------------------
def test_interpreter_runtime_warnings_do_not_leak(gen):
    x = torch.tensor([[1e30, -1e30, float("inf")], [0.0, 0.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _fn(gen, "logsumexp")(x, 1)
        _fn(gen, "softmax")(torch.full((2, 3), float("-inf")), 1)
        _fn(gen, "layer_norm")(torch.empty(2, 0), None, None)


# --- routing (committed modules) ------------------------------------------------------------------
@pytest.mark.parametrize("fn, aten, rowwise", [
    (lambda x: torch.var(x, 1), "var.correction", True),
    (lambda x: torch.var(x, 1, correction=0, keepdim=True), "var.correction", True),
    (lambda x: torch.std(x, (0, 1)), "std.correction", False),
    (lambda x: torch.argmax(x, 1), "argmax.default", True),
    (lambda x: torch.argmin(x), "argmin.default", False),
])
def test_var_std_argmax_argmin_are_routed(fn, aten, rowwise):
    from redgen.runtime import mode

    x = _x(5, 33)
    want = fn(x)
    with redgen.batch_invariant(strict=True):
        n = mode.call_counts()[aten]
        got = fn(x)
        assert mode.call_counts()[aten] == n + 1
        assert any(r[0] == aten for r in mode.routes())
        if rowwise:  # bitwise: row 0 alone gets the bits it gets in a batch of 5
            assert torch.equal(fn(x[:1]), got[:1])
    if got.dtype == torch.int64:
        assert torch.equal(got, want)
    else:
        torch.testing.assert_close(got, want, rtol=F32, atol=F32)


def test_layer_norm_statistics_like_torch_on_empty_and_inf_rows():
    for x in (torch.empty(2, 0), torch.tensor([[1.0, float("inf"), 2.0], [1.0, 2.0, 3.0]])):
        want = torch.ops.aten.native_layer_norm(x, list(x.shape[1:]), None, None, 1e-5)
        with redgen.batch_invariant(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = torch.ops.aten.native_layer_norm(x, list(x.shape[1:]), None, None, 1e-5)
        for g, w in zip(got, want, strict=True):
            torch.testing.assert_close(g, w, equal_nan=True)


# --- torch.ops.redgen with None weight/bias (a fresh process: registration is global) -------------
def test_custom_ops_take_none_weights_and_have_torchs_gradients(gen):
    code = (
        "import torch, redgen.runtime.custom_ops\n"
        "x = torch.randn(3, 8)\n"
        "y = torch.ops.redgen.layer_norm(x, None, None, [-1])\n"
        "ref = torch.nn.functional.layer_norm(x, (8,))\n"
        "assert torch.allclose(y[0], ref, atol=1e-5), (y[0] - ref).abs().max()\n"
        # torch's gradients through every shipped op (gradcheck at f32 tolerances; fast_mode checks
        # the Jacobian along random directions, two forward calls where the full one takes 48)
        "import warnings; warnings.simplefilter('ignore')\n"
        "cases = [('mean', ([1],)), ('sum', ([0, 1],)), ('logsumexp', ([1],)), ('var', ([1],)),\n"
        "         ('softmax', ([1],)), ('rms_norm', (None, [-1])), ('layer_norm', (None, None, [-1]))]\n"
        "for op, args in cases:\n"
        "    f = getattr(torch.ops.redgen, op)\n"
        "    fn = lambda t: (lambda r: r[0] if isinstance(r, tuple) else r)(f(t, *args))\n"
        "    x = torch.randn(3, 8, requires_grad=True)\n"
        "    assert torch.autograd.gradcheck(fn, (x,), eps=1e-2, atol=2e-2, rtol=2e-2, fast_mode=True), op\n"
        "x, w, b = (torch.randn(*s, requires_grad=True) for s in ((3, 8), (8,), (8,)))\n"
        "torch.ops.redgen.layer_norm(x, w, b, [-1])[0].square().sum().backward()\n"
        "assert x.grad is not None and w.grad is not None and b.grad is not None\n"
        "print('ok')\n"
    )
    env = {**os.environ, "TRITON_INTERPRET": "1", "REDGEN_GENERATED": str(gen),
           "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stderr[-2000:]
