"""A one-read spec's row kernel (redgen/plan.py ROW_ONCE_MAX, ROW_ONCE_MIN, ROW_ONCE_COMBINERS).

sum, mean, amax, amin, nansum and vector_norm hold rows of ROW_ONCE_MIN to ROW_ONCE_MAX
elements in the row kernel (all of a row's loads at once, one launch); shorter rows keep the
rows walk and longer ones the chunked walk (the split path at short grids). Checked here: which
specs have it, what the launcher takes at which length, and the bits of the row kernel against
both chunked paths and against the same row inside a batch.
"""

from __future__ import annotations

import importlib

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


@pytest.mark.parametrize("op", ["argmax", "logsumexp", "var", "nll_loss", "softmax", "rms_norm"])
def test_other_specs_keep_their_rows(op):
    """Index pairs and combiners with trees of their own were not timed held (ROW_ONCE_COMBINERS);
    a position read keeps the walk; a spec that reads its row again holds every row it can."""
    p = plan_spec(f"specs/{op}.red", "cuda")
    assert p.row_min == 0
    assert (p.row_tiles > 0) == bool(p.op.mapped or p.op.stages > 1)


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
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    for below in (0, 1 << 62):  # the fused path, then the split path
        monkeypatch.setattr(mod, "SPLIT_BELOW", below)
        assert torch.equal(fn(x, 1), held), (op, dtype, below)
