"""torch integration: redgen.load, torch.ops.redgen.*, batch-invariant mode.

Runs on CPU: the generated kernels execute in Triton's interpreter, so
TRITON_INTERPRET=1 is set before anything imports triton, and batch-invariant
mode then overrides the aten kernels at the CPU dispatch key.
"""

from __future__ import annotations

import os

os.environ["TRITON_INTERPRET"] = "1"

import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import redgen  # noqa: E402
from redgen.errors import NotCovered, RedgenError, UnknownKernel  # noqa: E402
from redgen.runtime import mode  # noqa: E402


@pytest.fixture(autouse=True)
def _clean_mode():
    """Every test starts and must end with the mode off and no warning remembered."""
    assert not redgen.is_enabled()
    mode._STATE.warned.clear()
    yield
    leaked = mode._STATE.count
    while mode._STATE.count:
        redgen.disable()
    assert leaked == 0, "a test left batch-invariant mode enabled"


def _x(*shape, dtype=torch.float32, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


def _routed(aten: str) -> int:
    return mode.call_counts()[aten]


# --- redgen.load ----------------------------------------------------------------------


def test_load_returns_the_generated_function():
    from generated.cuda.mean import mean

    assert redgen.load("mean", target="cuda") is mean
    assert redgen.load("sum") is redgen.load("sum", target="cuda")
    x = _x(3, 70, 2)
    assert torch.equal(redgen.load("mean")(x, dim=1), mean(x, 1))
    assert set(redgen.available()["cuda"]) >= {"mean", "sum"}


def test_load_unknown_op_lists_what_exists():
    with pytest.raises(LookupError) as e:
        redgen.load("meen", target="cuda")
    assert isinstance(e.value, RedgenError) and isinstance(e.value, UnknownKernel)
    msg = str(e.value)
    assert "meen" in msg and "mean" in msg and "sum" in msg and "cuda" in msg and "did you mean 'mean'" in msg


@pytest.mark.parametrize(("op", "target"), [(ROOT / "generated" / "cuda" / "mean.py", "cuda"), ("mean", None)])
def test_load_names_a_value_that_is_not_a_name(op, target):
    with pytest.raises(UnknownKernel) as e:
        redgen.load(op, target=target)
    msg = str(e.value)
    assert ("op must be a name" in msg and "mean.py" in msg) if target else ("target must be a name" in msg and "None" in msg)


def test_load_unknown_target_lists_targets():
    with pytest.raises(LookupError) as e:
        redgen.load("mean", target="rocm")
    msg = str(e.value)
    assert "rocm" in msg and "cuda" in msg and "ascend" in msg and "mean" in msg


def test_load_from_another_directory(tmp_path):
    (tmp_path / "cuda").mkdir()
    (tmp_path / "cuda" / "sum.py").write_text((ROOT / "generated" / "cuda" / "sum.py").read_text())
    fn = redgen.load("sum", root=tmp_path)
    x = _x(2, 40)
    assert torch.equal(fn(x, 1), redgen.load("sum")(x, 1))
    with pytest.raises(LookupError, match="ops for cuda: sum"):
        redgen.load("mean", root=tmp_path)


def test_import_redgen_is_lazy():
    code = ("import sys, redgen; assert callable(redgen.load); "
            "print('torch' in sys.modules, 'triton' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); " + code, str(ROOT)],
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# --- torch.ops.redgen -----------------------------------------------------------------


@pytest.fixture(scope="module")
def torch_ops():
    import redgen.runtime.custom_ops as t

    return t


def test_custom_ops_registered(torch_ops):
    assert {"mean", "sum"} <= set(torch_ops.registered())
    assert str(torch.ops.redgen.mean.default._schema) == (
        "redgen::mean(Tensor x, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor")
    x = _x(3, 70, 2, dtype=torch.bfloat16)
    assert torch.equal(torch.ops.redgen.mean(x, [1]), redgen.load("mean")(x, 1))
    assert torch.equal(torch.ops.redgen.sum(x, 1, keepdim=True, dtype=torch.float32),
                       redgen.load("sum")(x, 1, keepdim=True, dtype=torch.float32))


def test_custom_op_fake_shapes(torch_ops):
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(4, 5, 6, dtype=torch.float16)
        assert torch.ops.redgen.mean(x, [1]).shape == (4, 6)
        assert torch.ops.redgen.mean(x, [0, 2], keepdim=True).shape == (1, 5, 1)
        assert torch.ops.redgen.sum(x).shape == ()
        assert torch.ops.redgen.sum(x, -1, dtype=torch.float32).dtype == torch.float32


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_custom_op_under_torch_compile(torch_ops, backend):
    x = _x(5, 300, 3)
    eager = torch.ops.redgen.mean(x, [1])
    torch._dynamo.reset()
    compiled = torch.compile(lambda t: torch.ops.redgen.mean(t, [1]) * 2, backend=backend, fullgraph=True)
    assert torch.equal(compiled(x), eager * 2)


def test_custom_op_under_inductor(torch_ops):
    """Inductor needs a C++ compiler on CPU; skip (not fail) where it cannot compile."""
    x = _x(5, 300, 3)
    eager = torch.ops.redgen.sum(x, [1])
    torch._dynamo.reset()
    compiled = torch.compile(lambda t: torch.ops.redgen.sum(t, [1]), backend="inductor", fullgraph=True)
    try:
        got = compiled(x)
    except Exception as e:  # BackendCompilerFailed and friends: no usable toolchain
        pytest.skip(f"inductor unavailable here: {type(e).__name__}")
    assert torch.equal(got, eager)


def test_opcheck(torch_ops):
    result = torch.library.opcheck(torch.ops.redgen.mean.default, (_x(3, 50, 2), [1]))
    assert all(v == "SUCCESS" for v in result.values()), result


# --- batch-invariant mode: routing ----------------------------------------------------


def test_routing_runs_redgen_kernels():
    x = _x(4, 300, 3)
    own = torch.mean(x, dim=1)
    with redgen.batch_invariant():
        assert redgen.is_enabled()
        assert ("mean.dim", "CPU", "cuda:mean") in mode.routes()
        n = _routed("mean.dim")
        y = torch.mean(x, dim=1)
        assert _routed("mean.dim") == n + 1
        assert torch.equal(y, redgen.load("mean")(x, 1))
        s = x.sum(dim=(0, 2), keepdim=True)
        assert torch.equal(s, redgen.load("sum")(x, (0, 2), keepdim=True))
        # batch invariance through plain torch calls
        assert torch.equal(torch.mean(x[:1], 1), torch.mean(x, 1)[:1])
    assert not redgen.is_enabled() and mode.routes() == []
    n = _routed("mean.dim")
    assert torch.equal(torch.mean(x, dim=1), own) and _routed("mean.dim") == n


def test_routing_out_variants_and_dtype():
    x = _x(3, 100, 2, dtype=torch.bfloat16)
    with redgen.batch_invariant():
        n = _routed("mean.out")
        out = torch.empty(0, dtype=torch.float32)
        torch.mean(x, 1, dtype=torch.float32, out=out)
        assert _routed("mean.out") == n + 1
        assert torch.equal(out, redgen.load("mean")(x, 1, dtype=torch.float32))
        out = torch.empty(3, 2, dtype=torch.bfloat16)
        torch.sum(x, 1, out=out)
        assert torch.equal(out, redgen.load("sum")(x, 1))


def test_routing_under_torch_compile_aot_eager():
    x = _x(4, 200, 2)
    with redgen.batch_invariant():
        torch._dynamo.reset()
        f = torch.compile(lambda t: torch.mean(t, 1) + 1, backend="aot_eager")
        n = _routed("mean.dim")
        assert torch.equal(f(x), redgen.load("mean")(x, 1) + 1)
        assert _routed("mean.dim") > n


def test_routing_keeps_autograd():
    x = _x(3, 40).requires_grad_()
    with redgen.batch_invariant():
        n = _routed("mean.dim")
        x.mean(1).sum().backward()
        assert _routed("mean.dim") == n + 1
    assert torch.allclose(x.grad, torch.full_like(x, 1 / 40))


def test_rms_norm_on_cpu_decomposes_into_routed_mean():
    x = _x(4, 32)
    with redgen.batch_invariant():
        n = _routed("mean.dim")
        y = torch.nn.functional.rms_norm(x, (32,), eps=1e-6)
        assert _routed("mean.dim") > n
        assert torch.equal(torch.nn.functional.rms_norm(x[:1], (32,), eps=1e-6), y[:1])


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_fused_rms_norm_adapter_is_one_op_with_torchs_outputs(dtype):
    """aten._fused_rms_norm's adapter (routed on CUDA builds; CPU has no such kernel): with
    rms_norm_rstd, one generated call gives y and the rstd that scaled it, torch's shapes and
    dtypes, accurate, bitwise the same for a row alone; without it, rms_norm + mean."""
    from redgen.runtime import aten
    from redgen.runtime.loader import load
    from tests.tolerances import assert_accurate

    x = torch.randn(5, 3, 64, generator=torch.Generator().manual_seed(3)).to(dtype)
    w = torch.randn(64, generator=torch.Generator().manual_seed(4)).to(dtype)
    args = {"input": x, "normalized_shape": [64], "weight": w, "eps": 1e-5}
    want_y, want_rstd = torch.ops.aten._fused_rms_norm(x.double(), [64], w.double(), 1e-5)
    calls = []
    fns = {name: (lambda f, n: lambda *a, **k: calls.append(n) or f(*a, **k))(load(name, "cuda"), name)
           for name in ("rms_norm", "mean", "rms_norm_rstd")}
    y, rstd = aten._rms_norm(fns, args)
    assert calls == ["rms_norm_rstd"]
    assert y.dtype == dtype and rstd.dtype == torch.float32 and rstd.shape == (5, 3, 1)
    assert_accurate(y, want_y, dtype)
    assert_accurate(rstd, want_rstd, torch.float32)
    y1, rstd1 = aten._rms_norm(fns, {**args, "input": x[2:3]})
    assert torch.equal(y1, y[2:3]) and torch.equal(rstd1, rstd[2:3])
    del fns["rms_norm_rstd"]
    calls.clear()
    y2, rstd2 = aten._rms_norm(fns, args)
    assert calls == ["rms_norm", "mean"]
    assert_accurate(y2, want_y, dtype)
    assert_accurate(rstd2, want_rstd, torch.float32)


def test_uncovered_table_entries_are_skipped_with_a_reason():
    with redgen.batch_invariant():
        sk = mode.skipped()
    if "amax" not in redgen.available()["cuda"]:
        assert "amax" in sk["amax.default"]
    if "layer_norm" not in redgen.available()["cuda"]:
        assert "layer_norm" in sk["native_layer_norm.default"]


# --- fallback, strict -----------------------------------------------------------------


def _fallback_warnings(w):
    return [i for i in w if issubclass(i.category, mode.BatchInvarianceWarning)]


def test_fallback_calls_torch_and_warns_once():
    x = _x(3, 50, 2).double()
    own = torch.mean(x, 1)
    with redgen.batch_invariant(), warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        n = _routed("mean.dim")
        a = torch.mean(x, 1)
        b = torch.mean(x, 1)
        torch.arange(6).sum(0)  # another (op, reason): its own warning
        torch.arange(6).sum(0)
    assert torch.equal(a, own) and torch.equal(b, own) and a.dtype == torch.float64
    assert _routed("mean.dim") == n
    msgs = [str(i.message) for i in _fallback_warnings(w)]
    assert len(msgs) == 2, msgs
    assert "aten.mean.dim" in msgs[0] and "float64" in msgs[0]
    assert "aten.sum.dim_IntList" in msgs[1] and "int64" in msgs[1]


def test_fallback_for_unsupported_dtype_argument():
    x = _x(3, 20)
    with redgen.batch_invariant(), warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = torch.sum(x, 1, dtype=torch.float64)
    assert y.dtype == torch.float64 and torch.allclose(y, x.double().sum(1))
    assert "dtype=torch.float64" in str(_fallback_warnings(w)[0].message)


def test_strict_raises_and_nests():
    x = _x(3, 20).double()
    with redgen.batch_invariant(strict=True):
        with pytest.raises(NotCovered, match=r"aten.mean.dim.*float64"):
            torch.mean(x, 1)
        assert torch.equal(torch.mean(x.float(), 1), redgen.load("mean")(x.float(), 1))  # covered: fine
    with redgen.batch_invariant():
        with redgen.batch_invariant(strict=True):
            with pytest.raises(NotCovered):
                torch.mean(x, 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.mean(x, 1)  # the strict inner context is gone: falls back
    assert isinstance(NotCovered("m"), RuntimeError)


# --- nesting, exceptions, threads -----------------------------------------------------


def test_nesting_inner_exit_keeps_outer():
    x = _x(3, 30)
    with redgen.batch_invariant():
        with redgen.batch_invariant():
            pass
        assert redgen.is_enabled() and mode.routes()
        n = _routed("mean.dim")
        torch.mean(x, 1)
        assert _routed("mean.dim") == n + 1
        redgen.enable()
        redgen.disable()
        assert redgen.is_enabled()
    assert not redgen.is_enabled()


def test_exception_in_body_restores_torch():
    x = _x(3, 30)
    with pytest.raises(ZeroDivisionError):
        with redgen.batch_invariant():
            with redgen.batch_invariant(strict=True):
                raise ZeroDivisionError("body failed")
    assert not redgen.is_enabled() and mode.routes() == []
    n = _routed("mean.dim")
    torch.mean(x.double(), 1)  # no strict leftover: torch's own kernel, no NotCovered
    torch.mean(x, 1)
    assert _routed("mean.dim") == n


def test_unmatched_disable_raises():
    with pytest.raises(RuntimeError, match="without a matching"):
        redgen.disable()


def test_enable_disable_from_two_threads():
    x = _x(4, 60)
    ready, done = threading.Barrier(3), threading.Barrier(3)
    errors: list[BaseException] = []
    order = threading.Lock()

    def worker(i: int) -> None:
        try:
            redgen.enable()
            ready.wait()
            done.wait()  # main thread checks routing while both hold the mode
            # thread 0 leaves first; thread 1 must still see it enabled
            with order:
                redgen.disable()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    ready.wait()
    assert redgen.is_enabled() and mode._STATE.count == 2
    n = _routed("mean.dim")
    torch.mean(x, 1)  # process-global: this thread is routed too
    assert _routed("mean.dim") == n + 1
    done.wait()
    for t in threads:
        t.join()
    assert not errors, errors
    assert not redgen.is_enabled() and mode.routes() == []


# --- tables for ops generated later ---------------------------------------------------

_FAKE_OPS = {
    # Stand-ins with the launcher conventions, built from torch ops that the mode
    # does not override (or routes to other generated ops), to exercise the adapters.
    "amax": "def amax(x, dim=None, keepdim=False, *, dtype=None):\n"
            "    return x.sort(dim=dim[0] if isinstance(dim, (tuple, list)) else dim).values"
            ".narrow(dim[0] if isinstance(dim, (tuple, list)) else dim, -1, 1)"
            ".squeeze(*(() if keepdim else (dim[0] if isinstance(dim, (tuple, list)) else dim,)))\n",
    "softmax": "def softmax(x, dim=None, keepdim=False, *, dtype=None):\n"
               "    e = (x.float() - x.float().max(dim, keepdim=True).values).exp()\n"
               "    return (e / e.sum(dim, keepdim=True)).to(dtype or x.dtype)\n",
    "layer_norm": "def layer_norm(x, w, b, dim=None, keepdim=False, *, eps=1e-5, dtype=None):\n"
                  "    xf = x.float(); mu = xf.mean(dim, keepdim=True); c = xf - mu\n"
                  "    y = c * (c * c).mean(dim, keepdim=True).add(eps).rsqrt() * w.float() + b.float()\n"
                  "    return y.to(dtype or x.dtype)\n",
}


def test_routes_pick_up_ops_generated_later(tmp_path, monkeypatch):
    cuda = tmp_path / "cuda"
    cuda.mkdir()
    for op in ("mean", "sum"):
        (cuda / f"{op}.py").write_text((ROOT / "generated" / "cuda" / f"{op}.py").read_text())
    for op, src in _FAKE_OPS.items():
        (cuda / f"{op}.py").write_text("import torch\n\n" + src)
    monkeypatch.setenv("REDGEN_GENERATED", str(tmp_path))
    x = _x(3, 16)
    w, b = _x(16, seed=1), _x(16, seed=2)
    with redgen.batch_invariant():
        routed = {a for a, _, _ in mode.routes()}
        assert {"amax.default", "amax.out", "_softmax.default", "native_layer_norm.default"} <= routed
        assert "_log_softmax.default" in mode.skipped()
        before = mode.call_counts()
        m = torch.amax(x, 1)
        s = torch.softmax(x, 1)
        y, mu, rstd = torch.ops.aten.native_layer_norm(x, [16], w, b, 1e-5)
        y2 = torch.nn.functional.layer_norm(x, (16,))  # no weight/bias: ones/zeros
        used = mode.call_counts() - before
    assert used["amax.default"] == 1 and used["_softmax.default"] == 1 and used["native_layer_norm.default"] == 2
    assert torch.equal(m, x.max(1).values)
    assert torch.allclose(s, torch.softmax(x, 1), atol=1e-6)
    ref = torch.ops.aten.native_layer_norm(x, [16], w, b, 1e-5)
    assert y.shape == ref[0].shape and mu.shape == ref[1].shape and rstd.shape == ref[2].shape
    assert mu.dtype == ref[1].dtype and rstd.dtype == ref[2].dtype
    assert torch.allclose(y, ref[0], atol=1e-5) and torch.allclose(rstd, ref[2], rtol=1e-5)
    assert torch.allclose(y2, torch.nn.functional.layer_norm(x, (16,)), atol=1e-5)


# --- the demo -------------------------------------------------------------------------


def test_demo_small_runs_on_cpu():
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    # One repetition of part 1 (two by default with --small): each is an interpreter run of the batch.
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "batch_invariance_demo.py"), "--small",
                        "--iters", "1", "--device", "cpu"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Batch Deterministic: True" in r.stdout
    assert "bitwise equal: True" in r.stdout
    assert "aten.mean.dim" in r.stdout and "OK:" in r.stdout


def test_strict_is_per_thread():
    x = _x(3, 20).double()
    entered, leave = threading.Event(), threading.Event()

    def strict_thread() -> None:
        with redgen.batch_invariant(strict=True):
            entered.set()
            leave.wait(30)

    t = threading.Thread(target=strict_thread)
    t.start()
    entered.wait(30)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            torch.mean(x, 1)  # this thread did not ask for strict: falls back with a warning
        assert _fallback_warnings(w)
    finally:
        leave.set()
        t.join()
