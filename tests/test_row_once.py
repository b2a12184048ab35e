"""A one-read spec's row kernel (redgen/plan.py ROW_ONCE_MAX, ROW_ONCE_MIN, ROW_ONCE_COMBINERS,
ROW_ONCE_PAIRS).

sum, mean, amax, amin, nansum and vector_norm hold rows of ROW_ONCE_MIN to ROW_ONCE_MAX
elements in the row kernel (all of a row's loads at once, one launch); shorter rows keep the
rows walk and longer ones the chunked walk (the split path at short grids). argmax and argmin
hold them too, but only on grids of at most ROW_ONCE_PAIR_ROWS rows of 32-bit elements and
ROW_ONCE_PAIR_HALF_ROWS of 16-bit ones, their loads widened through _rg_f32_held. Checked here:
which specs have it, what the launcher takes at which length, grid and element size, and the bits
of the row kernel against both chunked paths, torch and the same row inside a batch.
"""

from __future__ import annotations

import importlib
import inspect

import pytest
import torch

from redgen import plan
from redgen.pipeline import plan_spec
from tests.launch_spy import launches

ONCE = ("sum", "mean", "amax", "amin", "nansum", "vector_norm")


@pytest.mark.parametrize("op", ONCE)
def test_one_read_specs_hold_rows_from_row_once_min(op):
    p = plan_spec(f"specs/{op}.red", "cuda")
    lanes = p.order.lanes.eval({})
    assert (p.row_tiles, p.row_min) == (plan.ROW_ONCE_MAX // lanes, plan.ROW_ONCE_MIN)


@pytest.mark.parametrize("op", ["logsumexp", "var", "nll_loss", "softmax", "rms_norm"])
def test_other_specs_keep_their_rows(op):
    """Combiners with trees of their own were not timed held (ROW_ONCE_COMBINERS); a position read
    (nll_loss's target) keeps the walk; a spec that reads its row again holds every row it can."""
    p = plan_spec(f"specs/{op}.red", "cuda")
    assert (p.row_min, p.row_rows, p.row_half_rows) == (0, 0, 0)
    assert (p.row_tiles > 0) == bool(p.op.mapped or p.op.stages > 1)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_index_pairs_hold_rows_on_short_grids(op):
    """Held, an index pair's combine runs on each element and lost to the chunked walks' group folds
    on long grids, and in 16 bits where the compiler narrowed it (runs 203, 205, 208): the plan says
    where it holds them, never across chunks, and widens their loads where it cannot narrow them."""
    p = plan_spec(f"specs/{op}.red", "cuda")
    lanes = p.order.lanes.eval({})
    assert (p.row_tiles, p.row_min) == (plan.ROW_ONCE_MAX // lanes, plan.ROW_ONCE_MIN)
    assert (p.row_rows, p.row_half_rows) == (plan.ROW_ONCE_PAIR_ROWS, plan.ROW_ONCE_PAIR_HALF_ROWS)
    assert not p.row_across
    mod = importlib.import_module(f"generated.cuda.{op}")
    assert (mod.ROW_ROWS, mod.ROW_HALF_ROWS) == (plan.ROW_ONCE_PAIR_ROWS, plan.ROW_ONCE_PAIR_HALF_ROWS)
    note = (f"on grids of at most {plan.ROW_ONCE_PAIR_ROWS} rows of 32-bit elements, "
            f"{plan.ROW_ONCE_PAIR_HALF_ROWS} of 16-bit ones")
    assert any(note in n for n in mod.CERTIFICATE["not_order_shaping"])
    src = inspect.getsource(mod._k_rows_row.fn)
    assert "_rg_f32_held(in_0_v)" in src and ".to(tl.float32)" not in src
    assert "_rg_f32_held(" in inspect.getsource(mod._widen.fn)


@pytest.mark.parametrize(("m", "n", "isz", "shape"), [
    (1, 8192, 4, "row"),
    (1024, 16384, 4, "row"),
    (1025, 16384, 4, "rows"),  # a longer grid: the chunked walk
    (256, 8192, 2, "row"),
    (257, 8192, 2, "rows"),
    (1, 4095, 4, "rows"),  # below ROW_MIN
    (1, 16385, 4, "rows"),  # past ROW_ONCE_MAX
])
def test_the_schedule_holds_index_pairs_where_the_plan_says(m, n, isz, shape):
    assert importlib.import_module("generated.cuda.argmax")._schedule(m, n, 1, isz)[2] == shape


@pytest.mark.parametrize(("n", "shape", "split"), [
    (4095, "rows", False),  # one chunk, below ROW_MIN: the rows walk
    (4096, "row", False),
    (9000, "row", False),  # three chunks, one launch (was the split path: two)
    (16384, "row", False),
    (16385, "rows", True),  # past ROW_ONCE_MAX: the chunked walk, split at a short grid
])
def test_the_launcher_holds_rows_of_row_min_to_row_once_max(n, shape, split):
    mod = importlib.import_module("generated.cuda.sum")
    assert mod.ROW_MIN == plan.ROW_ONCE_MIN and mod.ROW_MAX_TILES * mod.LANES == plan.ROW_ONCE_MAX
    got = mod._schedule(4, n, 1, 4)
    assert (got[2], got[6]) == (shape, split)


def _chunked_paths_equal(mod, fn, x, held, monkeypatch):
    """fn(x, 1) without the row kernel (ROW_MAX_TILES 0), on the fused and then the split path,
    gives the row kernel's bits `held`."""
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    for below in (0, 1 << 62):
        monkeypatch.setattr(mod, "SPLIT_BELOW", below)
        assert torch.equal(fn(x, 1), held), (mod.__name__, x.dtype, below)


@pytest.mark.parametrize("op", ["sum", "amax", "vector_norm"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_row_kernel_bits_equal_the_chunked_paths_and_the_batch(op, dtype, monkeypatch):
    """Rows of 9000 (three chunks of 4096, the last ragged): the row kernel, one launch, gives the
    bits of the fused and the split walks (ROW_MAX_TILES 0), and a row alone those of the same row
    in a batch."""
    mod = importlib.import_module(f"generated.cuda.{op}")
    fn = getattr(mod, op)
    x = (torch.randn(5, 9000, generator=torch.Generator().manual_seed(3)) * 4).to(dtype)
    seen = launches(mod, monkeypatch)
    held = fn(x, 1)
    assert [name for name, _ in seen] == ["_k_rows_row"]
    assert torch.equal(fn(x[2:3], 1), held[2:3])
    _chunked_paths_equal(mod, fn, x, held, monkeypatch)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_held_index_pairs_equal_the_chunked_paths_torch_and_the_batch(op, dtype, monkeypatch):
    """Rows of 9000 with ties, NaN and a row of -inf: the row kernel's first index of the maximum (NaN
    first) is the fused and the split walks' (ROW_MAX_TILES 0) and torch's, and a row alone gives the
    same index as inside the batch."""
    mod = importlib.import_module(f"generated.cuda.{op}")
    fn = getattr(mod, op)
    x = torch.randint(-3, 4, (5, 9000), generator=torch.Generator().manual_seed(5)).to(dtype)
    x[1, 7000] = x[1, 4100] = float("nan")
    x[3] = float("-inf")
    seen = launches(mod, monkeypatch)
    held = fn(x, 1)
    assert [name for name, _ in seen] == ["_k_rows_row"]
    assert torch.equal(held, getattr(torch, op)(x, 1))
    assert torch.equal(fn(x[1:2], 1), held[1:2])
    _chunked_paths_equal(mod, fn, x, held, monkeypatch)
