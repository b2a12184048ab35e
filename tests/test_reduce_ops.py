"""The generated amax, amin, logsumexp, var, std, argmax and argmin (cuda and ascend targets)
under the Triton interpreter, against torch.

Floats: a float64 torch reference and tests/tolerances.py. Indices: exact, on data built
with ties and NaN on purpose (torch: the first index of the extreme value, a NaN counts as
the extreme, the first NaN wins). Batch invariance: bitwise (torch.equal), rows alone vs
inside batches 2, 3, 7 and 64 with N spanning two chunks, on both cuda paths (module
SPLIT_BELOW: 0 -> fused, 1 << 62 -> split) and the ascend grids (module CORES 1, 8, 40, 48).
Shapes are small: the interpreter costs milliseconds per program instance.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tests.tolerances import assert_accurate

ROOT = Path(__file__).resolve().parent.parent
VALUE_OPS = ("amax", "amin", "logsumexp", "var", "std")
INDEX_OPS = ("argmax", "argmin")
OPS = VALUE_OPS + INDEX_OPS
TARGETS = ("cuda", "ascend")
DTYPES = (torch.float32, torch.float16, torch.bfloat16)
CHUNK = 4096  # `split N fixed_size 4096` in the specs
N_CHUNKS = CHUNK + 37  # two chunks, the second ragged
PATHS = {"fused": 0, "split": 1 << 62}  # cuda SPLIT_BELOW values that force a path
GRIDS = (1, 8, 40, 48)  # ascend CORES values
BATCHES = (2, 3, 7, 64)
nan, inf = float("nan"), float("inf")
# 0/0, inf - inf and exp overflow are the point of several cases: the interpreter's numpy
# warns about them, and torch warns about var/std with N - correction <= 0.
pytestmark = [pytest.mark.filterwarnings("ignore::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:var\\(\\)|std\\(\\):UserWarning")]


def module(target: str, op: str):
    return importlib.import_module(f"generated.{target}.{op}")


def run(target: str, op: str, x: torch.Tensor, *args, **kw) -> torch.Tensor:
    return getattr(module(target, op), op)(x, *args, **kw)


def torch_ref(op: str, x: torch.Tensor, dim=None, keepdim: bool = False, **kw) -> torch.Tensor:
    """torch's result with torch's own dim conventions (float64 for the value ops)."""
    if op in INDEX_OPS:
        fn = getattr(torch, op)
        return fn(x, dim, keepdim=keepdim) if dim is not None else fn(x, keepdim=keepdim)
    xd = x.double()
    fn = getattr(torch, op)
    if dim is None:
        dim = tuple(range(x.ndim))
    if op in ("var", "std"):
        return fn(xd, dim, keepdim=keepdim, correction=kw.get("correction", 1))
    return fn(xd, dim, keepdim=keepdim)


def randn(*shape, dtype=torch.float32, seed: int = 0) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


def tied(*shape, dtype=torch.float32, seed: int = 0, nans: int = 0) -> torch.Tensor:
    """Small integers (many ties on every row), and `nans` NaNs at random places."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(-3, 4, shape, generator=g).to(dtype)
    flat = x.view(-1)
    for i in torch.randint(0, flat.numel(), (nans,), generator=g).tolist():
        flat[i] = nan
    return x


def check(target: str, op: str, x: torch.Tensor, dim=None, keepdim: bool = False, **kw) -> torch.Tensor:
    out = run(target, op, x, dim, keepdim, **kw)
    ref = torch_ref(op, x, dim, keepdim, **kw)
    assert out.shape == ref.shape, (tuple(out.shape), tuple(ref.shape))
    if op in INDEX_OPS:
        assert out.dtype == torch.int64
        assert torch.equal(out, ref), (out, ref)
    else:
        assert out.dtype == x.dtype
        assert_accurate(out, ref, x.dtype)
    return out


@pytest.fixture(params=TARGETS)
def target(request):
    return request.param


# --- accuracy and exact indices --------------------------------------------------------------
CASES = [
    ((5, 37), 1),
    ((5, 37), -1),
    ((5, 37), 0),
    ((50,), 0),
    ((3, 37, 4), 1),  # K > 1: the cuda column kernel
    ((2, 300, 3), -2),
    ((3, 5, 6), None),
    ((4, 1, 6), 1),  # a size-1 reduce axis
]
MULTI = [((3, 5, 6), (1, 2)), ((2, 3, 4, 5), (1, 3)), ((3, 5, 6), (0, 2))]  # value ops only


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", VALUE_OPS)
def test_value_ops_accurate(target, op, dtype):
    for i, (shape, dim) in enumerate(CASES + MULTI):
        for keepdim in (False, True):
            check(target, op, randn(*shape, dtype=dtype, seed=i), dim, keepdim)


@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize("correction", [0, 1, 2])
def test_var_std_correction(target, op, correction):
    x = randn(4, 300, seed=7) * 3 + 5  # an offset: the two-pass form keeps the digits
    check(target, op, x, 1, correction=correction)
    # N - correction <= 0: 0/0 = nan (one element, correction 1) or x/0 = inf, as torch.
    one = torch.tensor([[1.5], [2.0]])
    assert run(target, op, one, 1, correction=1).isnan().all()
    assert torch.equal(run(target, op, one, 1, correction=0), torch.zeros(2))
    two = torch.tensor([[1.0, 2.0]])
    assert torch.equal(run(target, op, two, 1, correction=3), torch_ref(op, two, 1, correction=3).float())


def test_var_two_pass_is_sound(target):
    """A large mean and a small spread: sum(x^2) - sum(x)^2 / N would cancel to noise."""
    x = 1e4 + randn(3, 2000, seed=8)
    torch.testing.assert_close(run(target, "var", x, 1).double(), x.double().var(1), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", INDEX_OPS)
def test_index_ops_exact_with_ties(target, op, dtype):
    # keepdim only reshapes the output: each case runs once without NaNs and once with, one of
    # them keeping the dim (a call each under the interpreter costs seconds).
    for i, (shape, dim) in enumerate(CASES):
        check(target, op, tied(*shape, dtype=dtype, seed=i), dim, i % 2 == 0)
        check(target, op, tied(*shape, dtype=dtype, seed=i, nans=3), dim, i % 2 == 1)


@pytest.mark.parametrize("op", INDEX_OPS)
def test_index_ops_nan_ties_and_signed_zero(target, op):
    x = torch.tensor([
        [1.0, nan, 3.0, nan, 0.0],  # the first NaN, for argmax and argmin alike
        [2.0, 5.0, 5.0, 1.0, 1.0],  # ties: the lowest index
        [-inf, -inf, -inf, -inf, -inf],
        [inf, inf, -inf, -inf, 0.0],
        [0.0, -0.0, 0.0, 1.0, -1.0],  # -0.0 == 0.0: a tie
        [-0.0, 0.0, 2.0, 2.0, -1.0],
        [nan, nan, nan, nan, nan],
    ])
    check(target, op, x, 1)
    check(target, op, x.t().contiguous(), 0)  # the column kernel on cuda
    check(target, op, x, None)  # flattened: the first NaN of the whole tensor


@pytest.mark.parametrize("op", INDEX_OPS)
def test_index_ops_dim_none_and_0d(target, op):
    x = tied(3, 4, 5, seed=3)
    out = check(target, op, x)  # dim=None: over all elements, flattened, a 0-d index
    assert out.shape == ()
    assert check(target, op, x, None, keepdim=True).shape == (1, 1, 1)
    assert check(target, op, x.permute(2, 0, 1)).shape == ()  # flattened in the permuted order
    assert run(target, op, torch.tensor(2.5)).item() == 0
    assert torch.equal(run(target, op, x, [1]), torch_ref(op, x, 1))  # a one-element list is that dim
    with pytest.raises(TypeError, match="dim must be an int or None"):
        run(target, op, x, (0, 1))


def test_index_ops_take_no_dtype(target):
    with pytest.raises(TypeError):
        run(target, "argmax", randn(3, 4), 1, dtype=torch.float32)


@pytest.mark.parametrize("op", ["amax", "amin"])
def test_amax_amin_exact(target, op):
    """max/min never round: the result is one of the inputs, whatever the dtype."""
    for dtype in DTYPES:
        x = randn(6, 700, dtype=dtype, seed=4)
        out = run(target, op, x, 1)
        assert torch.equal(out, getattr(torch, op)(x, 1))


def test_amax_tuple_and_negative_dims(target):
    x = randn(2, 3, 4, 5, seed=5)
    for dim in [(-1, 1), [0, 2], (), (3,)]:
        check(target, "amax", x, dim)
        check(target, "amin", x, dim, keepdim=True)


# --- non-contiguous inputs -----------------------------------------------------------------------
NONCONTIG = {
    "transposed": (lambda: randn(6, 40, seed=9).t(), 1),
    "step-slice": (lambda: randn(5, 90, seed=10)[:, ::3], 1),
    "permuted-3d": (lambda: randn(4, 5, 6, seed=11).permute(2, 0, 1), 1),
    "expanded": (lambda: randn(1, 40, seed=12).expand(4, 40), 1),
    "offset-view": (lambda: randn(50, seed=13)[7:47].view(4, 10), 1),
}


@pytest.mark.parametrize("name", list(NONCONTIG))
@pytest.mark.parametrize("op", OPS)
def test_non_contiguous(target, op, name):
    make, dim = NONCONTIG[name]
    x = make()
    if op in INDEX_OPS:
        x = x.round()  # ties
    check(target, op, x, dim)
    check(target, op, x.to(torch.bfloat16), dim, keepdim=True)


# --- non-finite values --------------------------------------------------------------------------
NONFINITE = torch.tensor([
    [1.0, inf, 2.0, 3.0],
    [-inf, -inf, -inf, -inf],
    [inf, -inf, 1.0, 0.0],
    [nan, 1.0, 2.0, 3.0],
    [1.0, 2.0, nan, inf],
    [inf, inf, inf, inf],
    [-inf, 1.0, 2.0, 3.0],
])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", OPS)
def test_non_finite_rows_as_torch(target, op, dtype):
    x = NONFINITE.to(dtype)
    out = run(target, op, x, 1)
    ref = torch_ref(op, x, 1)
    if op in INDEX_OPS:
        assert torch.equal(out, ref)
    else:  # logsumexp: all -inf -> -inf, +inf -> inf, NaN -> NaN; var/std: nan with inf
        torch.testing.assert_close(out.double(), ref.to(out.dtype).double(), equal_nan=True, rtol=1e-3, atol=1e-3)


# --- empty tensors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape, dim, keepdim", [((0, 5), 1, False), ((0, 5), 1, True), ((2, 5, 0), 1, False)])
@pytest.mark.parametrize("op", OPS)
def test_empty_batch(target, op, shape, dim, keepdim):
    out = check(target, op, torch.empty(shape), dim, keepdim)
    assert out.numel() == 0


@pytest.mark.parametrize("shape, dim", [((3, 0), 1), ((3, 0, 4), 1), ((0,), 0), ((0, 0), 1), ((2, 0), None)])
@pytest.mark.parametrize("op", ["amax", "amin", "argmax", "argmin"])
def test_empty_reduce_axis_raises_like_torch(target, op, shape, dim):
    x = torch.empty(shape)
    with pytest.raises(IndexError):
        torch_ref(op, x, dim)
    with pytest.raises(ValueError, match=rf"{op}\(\): Expected reduction dim \d to have non-zero size") as info:
        run(target, op, x, dim)
    assert isinstance(info.value, IndexError)  # `except IndexError` written for torch still catches it
    if dim is not None:
        assert f"dim {dim}" in str(info.value)


@pytest.mark.parametrize("op", ["logsumexp", "var", "std"])
def test_empty_reduce_axis_computes_like_torch(target, op):
    """logsumexp over nothing is -inf; var/std over nothing are nan (torch too)."""
    x = torch.empty(3, 0)
    out = run(target, op, x, 1)
    ref = torch_ref(op, x, 1)
    torch.testing.assert_close(out.double(), ref, equal_nan=True)


# --- bitwise batch invariance ---------------------------------------------------------------------
def _data(op: str) -> torch.Tensor:
    x = randn(64, N_CHUNKS, seed=20)
    if op in INDEX_OPS:
        # Ties across the chunk boundary and inside a lane: rows 0 and 1 hold their extreme
        # value twice (the earlier index must win), row 1 a NaN in the second chunk.
        x = x.round()
        x[0, 100] = x[0, CHUNK + 5] = 50.0 if op == "argmax" else -50.0
        x[1, 7] = x[1, 7 + 256] = 50.0 if op == "argmax" else -50.0
        x[1, CHUNK + 20] = nan
    return x


def _knob(target: str):
    return ("SPLIT_BELOW", PATHS) if target == "cuda" else ("CORES", {f"grid{g}": g for g in GRIDS})


# Every batch (2, 3, 7, 64) on the launcher's own path/grid, and every forced cuda path
# (fused, split) and ascend grid (CORES 1, 8, 40, 48) at batches 2, 3, 7, compared with the
# same rows alone and inside the natural batch of 64 -- for one op of each kind of kernel.
# The mirror ops (amin, argmin, std: the same template lines with the comparison flipped
# or a sqrt added) run the natural cuda path only; their ascend modules give the cuda bits
# (test_same_bits_on_both_targets_and_positions) and their certificates record the
# interpreter's grid check. This keeps the file near two minutes in the interpreter.
FULL = ("amax", "logsumexp", "var", "argmax")
INVARIANCE = [("cuda", op) for op in OPS] + [("ascend", op) for op in FULL]


@pytest.mark.parametrize("target, op", INVARIANCE, ids=[f"{t}-{o}" for t, o in INVARIANCE])
def test_batch_invariance(target, op):
    mod = module(target, op)
    fn = getattr(mod, op)
    x = _data(op)
    alone = [fn(x[r:r + 1], 1) for r in (0, 1)]
    natural = {b: fn(x[:b], 1) for b in BATCHES}
    full = natural[64]

    def same(out, b, label):
        for r in (0, 1):
            assert torch.equal(out[r:r + 1], alone[r]), f"{op} row {r}: alone vs batch {b} ({label})"
        assert torch.equal(out, full[:b]), f"{op}: batch {b} ({label}) vs the first rows of batch 64"

    for b, out in natural.items():
        same(out, b, "natural")
    if op in FULL:
        name, forced = _knob(target)
        saved = getattr(mod, name)
        try:
            for label, value in forced.items():
                setattr(mod, name, value)
                for b in BATCHES[:-1]:
                    same(fn(x[:b], 1), b, label)
        finally:
            setattr(mod, name, saved)
    if op in INDEX_OPS:
        assert alone[0].item() == 100 and alone[1].item() == CHUNK + 20  # first extreme; the NaN
        assert torch.equal(natural[7], torch_ref(op, x[:7], 1))


@pytest.mark.parametrize("op", OPS)
def test_same_bits_on_both_targets_and_positions(op):
    """One order per spec: the cuda and ascend modules give the same bits; a row moved to another
    batch position gives the same bits; two runs give the same bits."""
    x = _data(op)[:5]
    perm = torch.tensor([3, 1, 2, 0, 4])
    c = run("cuda", op, x, 1)
    assert torch.equal(run("ascend", op, x, 1), c)
    assert torch.equal(run("cuda", op, x[perm], 1), c[perm])
    assert torch.equal(run("cuda", op, x, 1), c)


# --- certificates and modules ----------------------------------------------------------------------
@pytest.mark.parametrize("op", OPS)
def test_certificates(target, op):
    cert = module(target, op).CERTIFICATE
    assert cert["empirical"]["status"] == "passed"
    assert cert["depends_on"] == ["N"] and "M" in cert["independent_of"]
    assert cert["order"]["chunk"] == str(CHUNK)
    if op in INDEX_OPS:
        assert cert["order"]["combiners"] == [op]
        assert "lower index" in cert["order"]["combine_rules"][op]
        assert f"{op} combines (value, index) pairs" in cert["statement"]


def test_bench_smoke(tmp_path):
    """benchmarks/ops_bench.py --smoke runs on CPU under the interpreter (one op, tiny shapes)."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ops_bench.py"), "--smoke", "--ops", "argmax,logsumexp",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
        env={**__import__("os").environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "results.json").exists() and (tmp_path / "results.md").exists()
    text = (tmp_path / "results.md").read_text()
    assert "argmax" in text and "logsumexp" in text and "FAIL" not in text


def test_bench_summary_counts_what_it_says():
    """ops_bench's per-op line: geomeans of the other's time over redgen's, the points below SLOWER,
    the worst, and the large points' share of the copy bandwidth (only those moving LARGE_BYTES)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import ops_bench

    big = ops_bench.LARGE_BYTES
    rows = [
        {"op": "sum", "dtype": "f32", "rows": 1, "hidden": 8, "graph_ratio": 2.0, "liger_ratio": 0.5,
         "ratio": 1.0, "redgen_GBps": 900.0, "bytes": 64},
        {"op": "sum", "dtype": "bf16", "rows": 4096, "hidden": 8, "graph_ratio": 0.5, "ratio": 4.0,
         "redgen_GBps": 450.0, "bytes": big},
    ]
    line = ops_bench.op_summary(rows, ["liger"], 1000.0).splitlines()[2]
    assert line == ("| sum | 2 | 1.000 | 1 of 2 | 0.50 (bf16 4096x8) | 0.500 | 1 of 1 | 0.50 (f32 1x8) | 2.000 "
                    "| 45-45% (1) |")


@pytest.mark.parametrize("flag", ["--rows", "--hidden"])
def test_bench_refuses_a_bad_size_by_value(flag):
    """ops_bench names the offending value of a size flag (argparse's usage error, no traceback)."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ops_bench.py"), "--smoke", flag, "4096,x"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"argument {flag}: expected comma-separated positive integers, got '4096,x'" in proc.stderr
