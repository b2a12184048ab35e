"""The split path launches one kernel a stage (redgen/emit.py _reductions, macros.j2 fold_partials).

A later kernel (the next stage's partials, the outputs over the reduce axis, the reduced
outputs) folds the chunk partials of the stages it reads itself, from the identity left to
right, as the fused kernel combines them; no kernel only folds them and stores the totals.
Each stage's partials keep workspace rows of their own, since a stage's kernels store theirs
while they fold the previous stage's. Checked here: which kernels run, and the bits against
the fused path (the interpreter runs programs one after another, so a stage that overwrote
partials still to be folded would give other bits).
"""

from __future__ import annotations

import importlib

import pytest
import torch

from tests.launch_spy import launches

W = torch.randn(9000, generator=torch.Generator().manual_seed(1))
CALLS = {
    "softmax": lambda f, x: f(x, 1),
    "softmax_held": lambda f, x: f(x, 1),
    "log_softmax": lambda f, x: f(x, 1),
    "var_held": lambda f, x: f(x, 1),
    "argmax": lambda f, x: f(x, 1),
    "logsumexp": lambda f, x: f(x, 1),
    "layer_norm": lambda f, x: f(x, W, W),
}


@pytest.mark.parametrize(("op", "kernels"), [
    ("softmax", ["partial0", "map"]),  # was partial0, finish0, map
    ("log_softmax", ["partial0", "map"]),
    ("softmax_held", ["partial0", "partial1", "map"]),  # was five launches
    ("var_held", ["partial0", "partial1", "finish1"]),
    ("argmax", ["partial0", "finish0"]),
    ("logsumexp", ["partial0", "finish0"]),
    ("layer_norm", ["partial0", "partial1", "finish1", "map"]),  # the mean and rstd outputs, then y
])
def test_one_launch_a_stage_and_the_fused_paths_bits(op, kernels, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{op}")
    fn = getattr(mod, op)
    if hasattr(mod, "SHORT_MAX"):
        monkeypatch.setattr(mod, "SHORT_MAX", 0)  # this module's own kernels at any length
    if hasattr(mod, "ROW_MAX_TILES"):
        monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)  # the chunk walks: the row kernel holds a row of 9000
    x = torch.randn(2, 9000, generator=torch.Generator().manual_seed(2))  # three chunks of 4096
    seen = launches(mod, monkeypatch)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 1 << 62)
    split = CALLS[op](fn, x)
    assert [name.removeprefix("_k_").removeprefix("rows_") for name, _ in seen] == kernels
    seen.clear()
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    fused = CALLS[op](fn, x)
    assert [name for name, _ in seen] == ["_k_rows_fused"]
    for a, b in zip(split if isinstance(split, tuple) else (split,), fused if isinstance(fused, tuple) else (fused,),
                    strict=True):
        assert torch.equal(a, b)


def test_the_columns_split_path_folds_too(monkeypatch):
    """The cols kernels (K > 1): the same sequence, the bits of the fused cols kernel."""
    mod = importlib.import_module("generated.cuda.softmax_held")
    x = torch.randn(2, 9000, 3, generator=torch.Generator().manual_seed(3))
    seen = launches(mod, monkeypatch)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 1 << 62)
    split = mod.softmax_held(x, 1)
    assert [name for name, _ in seen] == ["_k_cols_partial0", "_k_cols_partial1", "_k_cols_map"]
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    assert torch.equal(split, mod.softmax_held(x, 1))
