"""cuda's cols kernels of specs whose walks take a step form (var, std) load COLS_UNROLL tiles
(plan.COLS_STEP_UNROLL) together at blocks of COLS_STEP_WIDE_BLOCK columns or more, under COLS_STEP_MAXNREG registers where a
row of K elements takes at most COLS_STEP_CAP_ROW_BYTES bytes, and COLS_STEP_NARROW_UNROLL tiles with
no cap below that block (redgen/plan.py).

Neither UNROLL nor a register cap shapes an order (the kernels' comments; tests/test_step_combine.py
compares their bits with the body's one tile at a time). H200 run 182 (docs/gpu_2026_11_29/README.md)
compared the bits at every point it timed. What is tested here is the rule: which launches it moves,
that it moves the tiles in flight and registers alone, that every option it passes is one a GPU
compile takes, and that a replayed call's key holds its knobs.
"""

from __future__ import annotations

import inspect

import pytest
import torch

from generated.cuda import std, var
from generated.cuda import sum as sum_mod
from redgen.pipeline import plan_spec
from tests.launch_spy import knobs, launches

MODULES = {"var": var, "std": std}


def _cols_launch(mod, k, monkeypatch, dtype=torch.float32, **values):
    """The cols partial kernel's constexprs of a var / std call on a [2, 4396, k] input."""
    monkeypatch.setattr(mod, "SHORT_MAX", 0)  # the walk, not the short rows' module
    seen = launches(mod, monkeypatch)
    x = torch.randn(2, 4096 + 300, k).to(dtype)
    with knobs(mod, **values):
        getattr(mod, mod.__name__.rsplit(".", 1)[1])(x, dim=1)
    (consts,) = [c for name, c in seen if name == "_k_cols_partial0"]
    return consts


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize(
    ("k", "dtype", "block", "unroll", "maxnreg"),
    [
        (64, torch.bfloat16, 16, 2, 168),  # three programs a multiprocessor where 248 registers fitted two
        (64, torch.float32, 16, 2, None),  # f32 rows of 256 bytes: two programs ran faster (run 185)
        (32, torch.float32, 16, 2, 168),  # 128 bytes: COLS_STEP_CAP_ROW_BYTES
        (16, torch.float32, 16, 2, 168),
        (9, torch.float32, 16, 2, 168),  # the block holding K: 16
        (8, torch.float32, 8, 4, None),  # no cap: it would raise a narrow block's registers to it
        (3, torch.bfloat16, 4, 4, None),
    ],
)
def test_the_cols_kernels_tiles_and_registers(name, k, dtype, block, unroll, maxnreg, monkeypatch):
    mod = MODULES[name]
    assert (mod.COLS_UNROLL, mod.COLS_STEP_NARROW_UNROLL, mod.COLS_STEP_WIDE_BLOCK,
            mod.COLS_STEP_MAXNREG, mod.COLS_STEP_CAP_ROW_BYTES) == (2, 4, 16, 168, 128)
    consts = _cols_launch(mod, k, monkeypatch, dtype)
    assert (consts["BLOCK"], consts["UNROLL"], consts.get("maxnreg")) == (block, unroll, maxnreg)


@pytest.mark.parametrize("name", list(MODULES))
def test_the_rule_moves_the_unroll_and_registers_alone(name, monkeypatch):
    """With one tile at a time and no cap the launch is the one before the rule, but for those two."""
    mod = MODULES[name]
    on = _cols_launch(mod, 32, monkeypatch)
    monkeypatch.undo()
    off = _cols_launch(mod, 32, monkeypatch, COLS_UNROLL=1, COLS_STEP_MAXNREG=0)
    assert off["UNROLL"] == 1 and on["UNROLL"] == 2 and on.pop("maxnreg") == 168 and "maxnreg" not in off
    assert {**on, "UNROLL": 1} == off


def test_the_rows_walks_and_other_specs_keep_their_launches(monkeypatch):
    """K = 1 walks rows (UNROLL, no cap); a spec without a step walk has no rule."""
    monkeypatch.setattr(var, "SHORT_MAX", 0)
    seen = launches(var, monkeypatch)
    var.var(torch.randn(2, 4396), dim=1)
    assert seen and all(c["UNROLL"] == var.UNROLL and "maxnreg" not in c for n, c in seen if "rows" in n)
    assert not hasattr(sum_mod, "COLS_STEP_NARROW_UNROLL") and sum_mod.COLS_UNROLL == 1
    assert plan_spec("specs/sum.red", "cuda").cols_step is False
    assert plan_spec("specs/var.red", "cuda").cols_step is True
    assert plan_spec("specs/var.red", "ascend").cols_step is False  # no step walks there
    assert plan_spec("specs/var_held.red", "cuda").cols_step is False


@pytest.mark.parametrize("name", list(MODULES))
def test_the_replay_key_holds_the_rules_knobs(name):
    """The launcher reads them; a knob set between calls must record anew, not replay old launches."""
    mod = MODULES[name]
    names = ("COLS_UNROLL", "COLS_STEP_NARROW_UNROLL", "COLS_STEP_WIDE_BLOCK", "COLS_STEP_MAXNREG",
             "COLS_STEP_CAP_ROW_BYTES")
    read = {k for k in names if k in inspect.getsource(mod._launch)}
    assert len(read) == 5 and all(k in inspect.getsource(mod._knobs) for k in read)


def test_the_empirical_checks_forced_paths_load_one_tile_at_a_time():
    """What the certificate says of the rule's tiles ("the forced paths load one at a time and are
    compared") holds: the forced paths set both cols unrolls to 1, but where groups shape the order."""
    from redgen.verify.empirical import case

    off = case(plan_spec("specs/var.red", "cuda"))["off"]
    assert off["COLS_UNROLL"] == 1 and off["COLS_STEP_NARROW_UNROLL"] == 1 and off["UNROLL"] == 1
    assert "COLS_UNROLL" not in case(plan_spec("specs/logsumexp.red", "cuda"))["off"]  # its groups: the order
    text = open(var.__file__).read()
    assert "the cols kernels' 2, COLS_UNROLL, 4 at blocks of fewer than 16 columns, COLS_STEP_NARROW_UNROLL" in text
