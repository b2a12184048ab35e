"""The generated cuda kernels (generated/cuda/{mean,sum}.py) under the Triton interpreter.

Accuracy is checked against a float64 torch reference at the tolerances of
tests/tolerances.py; batch invariance is checked bit for bit (torch.equal).
TRITON_INTERPRET=1 is set by conftest.py before triton is imported; CPU
tensors are accepted in that mode. Shapes are kept small: every program
instance costs milliseconds in the interpreter.
"""

from __future__ import annotations

import pytest
import torch

from generated.cuda import mean as mean_mod
from generated.cuda import sum as sum_mod
from redgen.plan import SPLIT_BELOW_ONCE
from tests.tolerances import assert_accurate

MODULES = {"mean": mean_mod, "sum": sum_mod}
REFS = {"mean": torch.mean, "sum": torch.sum}
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
CHUNK = 4096  # `split N fixed_size 4096` in the shipped specs
N_CHUNKS = CHUNK + 37  # two chunks, the last one ragged (the natural call holds it in the row kernel)
PATHS = {"split": 1 << 62, "fused": 0}  # SPLIT_BELOW values that force a path


@pytest.fixture(params=["mean", "sum"])
def op(request):
    return request.param


@pytest.fixture(params=["natural", "split", "fused"])
def path(request, op, monkeypatch):
    """Take the launcher's own choice of path or force one (SPLIT_BELOW restored afterwards). A
    forced path walks rows in chunks: the row kernel, which holds rows of ROW_MIN or more, is off."""
    if request.param != "natural":
        monkeypatch.setattr(MODULES[op], "SPLIT_BELOW", PATHS[request.param])
        monkeypatch.setattr(MODULES[op], "ROW_MAX_TILES", 0)
    return request.param


def run(op: str, x: torch.Tensor, *args, **kw) -> torch.Tensor:
    return getattr(MODULES[op], op)(x, *args, **kw)


def reference(op: str, x: torch.Tensor, dim=None, keepdim: bool = False) -> torch.Tensor:
    """float64 torch result, with torch's own dim/keepdim semantics."""
    xd = x.double()
    if dim is None:
        out = REFS[op](xd)
        return out.reshape([1] * x.ndim) if keepdim else out
    return REFS[op](xd, dim, keepdim=keepdim)


def randn(*shape, dtype=torch.float32, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


def check(op: str, x: torch.Tensor, dim=None, keepdim: bool = False, **kw) -> torch.Tensor:
    out = run(op, x, dim, keepdim, **kw)
    ref = reference(op, x, dim, keepdim)
    assert out.shape == ref.shape
    assert out.dtype == kw.get("dtype", x.dtype)
    assert_accurate(out, ref, x.dtype)
    return out


# --- accuracy -------------------------------------------------------------------------------
CASES = [
    ((5, 37), 1),
    ((5, 37), -1),
    ((5, 37), 0),
    ((50,), 0),
    ((3, 37, 4), 1),            # K > 1: the column kernel
    ((3, 5, 6), (1, 2)),        # adjacent dims, at the end
    ((3, 5, 6), (0, 1)),        # adjacent dims, at the front
    ((3, 5, 6), (0, 2)),        # non-adjacent
    ((2, 3, 4, 5), (1, 3)),     # non-adjacent, batch dims on both sides
    ((2, 3, 4, 5), (-3, -1)),   # negative
    ((2, 3, 4, 5), [2, 0]),     # a list, unsorted
    ((3, 5, 6), None),
    ((3, 5, 6), ()),            # as torch: an empty dim list reduces everything
    ((4, 1, 6), 1),             # reduce over a size-1 dim
    ((1, 40, 1), 1),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape, dim", CASES, ids=[f"{s}-{d}" for s, d in CASES])
def test_accuracy(op, shape, dim, keepdim, dtype):
    check(op, randn(*shape, dtype=dtype), dim, keepdim)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape, dim", [((2, N_CHUNKS), -1), ((N_CHUNKS,), 0), ((2, N_CHUNKS, 3), 1)])
def test_accuracy_several_chunks(op, path, shape, dim, dtype):
    check(op, randn(*shape, dtype=dtype), dim)


@pytest.mark.parametrize("in_dtype, out_dtype", [
    (torch.bfloat16, torch.float32),
    (torch.float16, torch.float32),
    (torch.float32, torch.float16),
    (torch.float32, torch.bfloat16),
    (torch.float32, torch.float32),
], ids=str)
def test_dtype_argument(op, in_dtype, out_dtype):
    x = randn(4, 300, dtype=in_dtype)
    out = check(op, x, 1, dtype=out_dtype)
    assert out.dtype == out_dtype


def test_bf16_in_f32_out_is_accumulated_in_f32(op):
    """dtype=torch.float32 on bf16 input: the f32 result is as good as the f32 accumulator, not bf16."""
    x = randn(3, 1000, dtype=torch.bfloat16)
    out = run(op, x, 1, dtype=torch.float32)
    torch.testing.assert_close(out.double(), reference(op, x, 1), rtol=1e-5, atol=1e-5)


# --- non-contiguous inputs --------------------------------------------------------------------
NONCONTIG = {
    "transposed-dim0": (lambda: randn(6, 40).t(), 0),
    "transposed-dim1": (lambda: randn(6, 40).t(), 1),
    "step-slice": (lambda: randn(5, 90)[:, ::3], 1),
    "step-slice-rows": (lambda: randn(10, 30)[::2], 1),
    "permuted-3d": (lambda: randn(4, 5, 6).permute(2, 0, 1), 1),
    "sliced-3d": (lambda: randn(6, 7, 8)[::2, 1:, 2:5], (0, 2)),
    "unmergeable": (lambda: randn(4, 6, 8)[:, ::2, :], (1, 2)),  # dims 1,2 share no single stride: a copy
    "expanded": (lambda: randn(1, 40).expand(4, 40), 1),
    "expanded-reduce": (lambda: randn(4, 1).expand(4, 40), 1),
    "offset-view": (lambda: randn(50)[7:47].view(4, 10), 1),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("name", list(NONCONTIG))
def test_non_contiguous(op, name, dtype):
    make, dim = NONCONTIG[name]
    x = make().to(dtype) if dtype != torch.float32 else make()
    check(op, x, dim)
    check(op, x, dim, keepdim=True)


def test_input_not_modified(op):
    x = randn(3, 40).t()
    before = x.clone()
    run(op, x, 0)
    assert torch.equal(x, before)


# --- edge shapes ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dim", [None, (), 0, -1, (0,), [-1]], ids=repr)
@pytest.mark.parametrize("keepdim", [False, True])
def test_zero_dim_input(op, dim, keepdim):
    x = torch.tensor(3.25)
    out = check(op, x, dim, keepdim)
    assert out.shape == torch.Size([]) and out.item() == 3.25


@pytest.mark.filterwarnings("ignore:invalid value encountered in divide:RuntimeWarning")  # 0/0 in the interpreter
@pytest.mark.parametrize("shape, dim", [((3, 0), 1), ((3, 0, 4), 1), ((0,), 0), ((0, 0), None), ((2, 0, 3), (1, 2))])
def test_empty_reduce_axis(op, shape, dim):
    """As torch: a sum over nothing is 0, a mean over nothing is nan."""
    x = torch.empty(shape)
    out = check(op, x, dim)
    expect = 0.0 if op == "sum" else float("nan")
    assert torch.equal(out, torch.full_like(out, expect)) if op == "sum" else out.isnan().all()


@pytest.mark.parametrize("shape, dim, keepdim", [
    ((0, 5), 1, False), ((0, 5), 1, True), ((2, 5, 0), 1, False), ((0, 3, 4), (1, 2), True),
])
def test_empty_batch(op, shape, dim, keepdim):
    out = check(op, torch.empty(shape), dim, keepdim)
    assert out.numel() == 0


# --- bitwise batch invariance ------------------------------------------------------------------------
BATCHES = (2, 3, 7, 64)


def _invariance(op: str, x: torch.Tensor, dim: int, paths=("natural", "split", "fused"), batches=BATCHES) -> None:
    """Rows 0 and 1 computed alone equal the same rows inside every batch, bit for bit, on every path.

    Also: row 0 moved to another batch position gives the same bits.
    """
    mod = MODULES[op]
    alone = [run(op, x[r:r + 1], dim) for r in (0, 1)]
    saved, held = mod.SPLIT_BELOW, mod.ROW_MAX_TILES
    try:
        for p in paths:
            mod.SPLIT_BELOW = saved if p == "natural" else PATHS[p]
            mod.ROW_MAX_TILES = held if p == "natural" else 0  # a forced path walks the chunks
            for b in batches:
                out = run(op, x[:b], dim)
                for r in (0, 1):
                    assert torch.equal(out[r:r + 1], alone[r]), f"row {r}: alone vs batch {b} ({p} path)"
            perm = torch.arange(7)
            perm[0], perm[5] = 5, 0
            out = run(op, x[:7][perm], dim)
            assert torch.equal(out[5:6], alone[0]), f"row 0 at batch position 5 ({p} path)"
    finally:
        mod.SPLIT_BELOW, mod.ROW_MAX_TILES = saved, held


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_batch_invariance_last_dim(op, dtype):
    """dim=-1 of (B, N), N spanning two chunks: the row kernel (natural), the chunk walks (forced)."""
    _invariance(op, randn(64, N_CHUNKS, dtype=dtype, seed=1), -1)


@pytest.mark.parametrize("k", [1, 3, 33], ids=lambda k: f"K{k}")
def test_batch_invariance_middle_dim(op, k):
    """dim=1 of (B, N, K): K == 1 takes the row kernel (or the forced chunk walks), K > 1 the column kernel (33: two column
    blocks of the spec's 32, the second of one column). The column kernel's grid is M times the
    column blocks whatever M, so batches up to 7 reach every grid shape it has (interpreter time:
    a batch of 64 with K = 33 alone would take minutes)."""
    paths = ("natural", "split", "fused") if k != 33 else ("natural", "fused")
    batches = BATCHES if k == 1 else (2, 3, 7)
    assert k == 1 or MODULES[op]._schedule(7, N_CHUNKS, 33, 4)[2:4] == ("cols", 32)
    _invariance(op, randn(max(batches), N_CHUNKS, k, seed=2), 1, paths, batches)


@pytest.mark.parametrize("k", [1, 3], ids=lambda k: f"K{k}")
def test_unroll_is_not_order_shaping(op, k, monkeypatch):
    """The chunk walks load UNROLL tiles together (a group only where all its tiles start in
    the chunk, the rest one by one): any UNROLL gives the bits of one tile at a time, on both
    kernel shapes and both paths (three chunks of 8 tiles and a ragged one of 1). The cols
    kernels read COLS_UNROLL."""
    mod = MODULES[op]
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)  # the chunk walks (the row kernel loads a row at once)
    x = randn(3, N_CHUNKS, k, seed=6)
    results = {}
    for unroll in (1, 2, 3, 4, 8):
        monkeypatch.setattr(mod, "UNROLL", unroll)
        monkeypatch.setattr(mod, "COLS_UNROLL", unroll)
        for p in ("split", "fused"):
            monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS[p])
            results[unroll, p] = run(op, x, 1)
    first = results[1, "fused"]
    for key, out in results.items():
        assert torch.equal(out, first), f"UNROLL={key[0]} ({key[1]} path)"


def test_cols_block_fits_small_k(op):
    """A cols block shrinks to the power of two holding K (fewer masked columns), and a column
    reduced in a block of 4 (K == 3) has the bits it has in a block of 32 (K == 20: the spec's
    tile K = 32, fitted to 20)."""
    assert MODULES[op]._schedule(5, N_CHUNKS, 3, 4)[2:5] == ("cols", 4, 5)
    assert MODULES[op]._schedule(5, N_CHUNKS, 20, 4)[2:5] == ("cols", 32, 5)
    assert MODULES[op]._schedule(5, N_CHUNKS, 72, 4)[2:5] == ("cols", 32, 15)  # the spec's tile K
    x = randn(2, N_CHUNKS, 20, seed=7)
    assert torch.equal(run(op, x[:, :, :3], 1), run(op, x, 1)[:, :3])


def test_invariant_across_kernel_shapes(op):
    """A column reduced alone (K == 1, row kernel) equals it inside K == 3 (column kernel)."""
    x = randn(2, N_CHUNKS, 3, seed=3)
    wide = run(op, x, 1)
    for k in range(3):
        assert torch.equal(run(op, x[:, :, k:k + 1], 1)[:, 0], wide[:, k])
        assert torch.equal(run(op, x[:, :, k].contiguous(), 1), wide[:, k])


def test_invariant_to_layout(op):
    """The same values, contiguous or transposed, give the same bits."""
    x = randn(4, N_CHUNKS, seed=4)
    xt = x.t().contiguous().t()
    assert not xt.is_contiguous()
    assert torch.equal(run(op, x, 1), run(op, xt, 1))


def test_run_to_run(op, path):
    x = randn(5, N_CHUNKS, seed=5)
    first = run(op, x, 1)
    assert torch.equal(run(op, x, 1), first)
    assert torch.equal(run(op, x.clone(), 1), first)


def test_split_below_is_restored(op, path):
    """The path fixture restores SPLIT_BELOW (guards the other tests' assumption)."""
    # mean and sum read their input once: the plan's SPLIT_BELOW_ONCE
    assert MODULES[op].SPLIT_BELOW == (SPLIT_BELOW_ONCE if path == "natural" else PATHS[path])


# --- errors -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float64, torch.bool], ids=str)
def test_wrong_dtype(op, dtype):
    x = torch.zeros(3, 4, dtype=dtype)
    with pytest.raises(TypeError, match=str(dtype)):
        run(op, x, 1)


def test_not_a_tensor(op):
    with pytest.raises(TypeError, match="torch.Tensor"):
        run(op, [[1.0, 2.0]], 1)


@pytest.mark.parametrize("dim, exc, fragment", [
    (2, ValueError, "dim 2 is out of range"),
    (-3, ValueError, "dim -3 is out of range"),
    ((0, 0), ValueError, "twice"),
    ((1, -1), ValueError, "twice"),
    (1.0, TypeError, "1.0"),
    ((0, 1.5), TypeError, "1.5"),
    ("1", TypeError, "'1'"),
])
def test_bad_dim(op, dim, exc, fragment):
    with pytest.raises(exc, match=fragment):
        run(op, randn(3, 4), dim)


def test_bad_dim_on_zero_dim_input(op):
    with pytest.raises(ValueError, match="out of range"):
        run(op, torch.tensor(1.0), 1)


def test_wrong_device(op):
    x = torch.empty(3, 4, device="meta")
    with pytest.raises(ValueError, match="meta"):
        run(op, x, 1)


@pytest.mark.parametrize("dtype", [torch.int32, torch.float64], ids=str)
def test_bad_dtype_argument(op, dtype):
    with pytest.raises(TypeError, match=str(dtype)):
        run(op, randn(3, 4), 1, dtype=dtype)


def test_cpu_tensor_needs_the_interpreter(op, monkeypatch):
    monkeypatch.setattr(MODULES[op], "_INTERPRET", False)
    with pytest.raises(ValueError, match="'cpu'"):
        run(op, randn(3, 4), 1)


def test_numpy_integer_dim(op):
    """As torch: any integer with __index__ is a dim (numpy integers, 0-d integer tensors)."""
    import numpy as np

    check(op, randn(3, 5), np.int64(1))
    check(op, randn(3, 5), (np.int32(0), torch.tensor(1)))


# --- values ---------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf in the interpreter's numpy
def test_non_finite_values_propagate_as_in_torch(op):
    inf, nan = float("inf"), float("nan")
    x = torch.tensor([[1.0, inf], [inf, -inf], [nan, 1.0], [-inf, 2.0]])
    torch.testing.assert_close(run(op, x, 1), REFS[op](x, 1), equal_nan=True)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_f16_overflow_gives_inf_as_in_torch(op):
    x = torch.full((1, 3000), 60000.0, dtype=torch.float16)
    out = run(op, x, 1)
    assert torch.equal(out, REFS[op](x, 1)) if op == "sum" else torch.isfinite(out).all()


def test_five_dims(op):
    check(op, randn(2, 3, 4, 5, 6), (1, 3))
    check(op, randn(2, 3, 4, 5, 6), (1, 2, 3), keepdim=True)
