"""The fused walks of short rows in fewer lanes (plan.Plan.short_tile, SHORT_TILE_MIN).

A row of at most half the lanes is walked in TILE lanes, the power of two holding it, and the
kernel folds in the subtrees of empty lanes the LANES-lane tree would meet: the same bits as the
LANES-lane walk (SHORT_TILE_MAX = 0), which these tests compare at lengths around every power of two
the walk takes, in the cols kernels and the rows kernel (BLOCK rows a program), for every combiner
kind it serves (a sum, a max, an order-free index pair, two stages, outputs over the reduce axis)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import torch

from redgen import plan
from redgen.pipeline import build_spec
from tests.launch_spy import launches

ROOT = Path(__file__).resolve().parent.parent

# lengths: the fewest lanes (8) and past them, every power of two up to half the lanes and one
# past it, and the first length the LANES-lane walk keeps
LENGTHS = (1, 5, 8, 9, 16, 17, 33, 64, 65, 100, 128, 129)


def _bits(t: torch.Tensor) -> torch.Tensor:
    return t.view(torch.int32) if t.dtype == torch.float32 else t


@pytest.mark.parametrize(("name", "call"), [
    ("sum", lambda f, x: f(x, 1)),
    ("amax", lambda f, x: f(x, 1)),
    ("argmax", lambda f, x: f(x, 1)),
    ("var_held", lambda f, x: f(x, 1)),
    ("softmax_held", lambda f, x: f(x, 1)),
])
def test_the_short_walk_gives_the_lanes_walks_bits(name, call, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(0)
    for n in LENGTHS:
        x = torch.randn(2, n, 3, generator=gen)
        x[0, n // 2, 1] = -0.0  # a negative zero inside the row
        seen.clear()
        short = call(fn, x)
        tiles = [c["TILE"] for k, c in seen if k == "_k_cols_fused"]
        assert tiles == [256 if n > 128 else max(8, 1 << (n - 1).bit_length())], n
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 0)
        seen.clear()
        full = call(fn, x)
        assert [c["TILE"] for k, c in seen if k == "_k_cols_fused"] == [256]
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 128)
        assert torch.equal(_bits(short), _bits(full)), (name, n)


def test_a_row_of_special_values_keeps_its_bits(monkeypatch):
    """NaN, infinities and zeros of both signs, where an empty lane's state meets them."""
    mod = importlib.import_module("generated.cuda.sum")
    amax = importlib.import_module("generated.cuda.amax")
    x = torch.tensor([[float("nan"), 1.0, float("inf"), -0.0, -float("inf"), 0.0, -0.0, 2.5, 3.0]]).T
    x = torch.stack([x.repeat(1, 4), (-x).repeat(1, 4), torch.full((9, 4), -0.0)])  # [3, 9, 4]
    for m, f in ((mod, mod.sum), (amax, amax.amax)):
        short = f(x, 1)
        monkeypatch.setattr(m, "SHORT_TILE_MAX", 0)
        assert torch.equal(_bits(f(x, 1)), _bits(short))
        monkeypatch.setattr(m, "SHORT_TILE_MAX", 128)
    assert torch.equal(_bits(mod.sum(x[2:], 1)), _bits(torch.zeros(1, 4)))  # -0.0s sum to +0.0, as the lanes' walk


@pytest.mark.parametrize(("name", "block"), [("sum", 128), ("mean", 128), ("nansum", 64), ("vector_norm", 64),
                                             ("amax", 64), ("amin", 64), ("argmax", 16), ("var_held", 32)])
def test_short_rows_column_block(name, block, monkeypatch):
    """One reduction of one state component takes COLS_TILE_BLOCK columns (sum and mean their
    specs' tuned 128); several stages or state components keep the spec's block (H100 runs 86-88)."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    fn(torch.randn(1, 20, 130), 1)
    assert [c["BLOCK"] for k, c in seen if k.startswith("_k_cols")] == [block]


@pytest.mark.parametrize(("name", "tile", "block"), [
    ("sum", True, True), ("nansum", True, True), ("vector_norm", True, True), ("amax", True, True),
    ("argmax", True, False), ("var_held", True, False), ("softmax_held", True, False), ("nll_loss", True, False),
    ("mean_2axes", True, True),
    ("logsumexp", False, False), ("cross_entropy", False, False),  # softmax_stats: a lane tree of its own
    ("var", False, False),  # welford: likewise
    ("rms_norm", False, False),  # its row kernel holds short rows (no cols kernel)
])
def test_which_plans_walk_short_rows_in_fewer_lanes(name, tile, block):
    built = build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False)
    assert built.plan.short_tile is tile
    assert (built.plan.cols_tile_block == plan.COLS_TILE_BLOCK) is block
    assert ("TILE: tl.constexpr" in built.source) is tile
    assert ("(SHORT_TILE_MAX) in TILE" in built.source) is tile  # the certificate says so
    ascend = build_spec(ROOT / "specs" / f"{name}.red", "ascend", empirical=False)
    assert not ascend.plan.short_tile and "SHORT_TILE" not in ascend.source


@pytest.mark.parametrize("name", ["sum", "argmax", "nansum"])
def test_the_rows_kernels_short_walk_gives_the_lanes_walks_bits(name, monkeypatch):
    """K == 1: BLOCK rows a program (ROWS_TILE_ELEMS // TILE), the last program's rows past M masked."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(1)
    for n in LENGTHS:
        x = torch.randn(37, n, generator=gen)
        seen.clear()
        short = fn(x, -1)
        tile = 256 if n > 128 else max(8, 1 << (n - 1).bit_length())
        assert [(c["TILE"], c["BLOCK"]) for k, c in seen] == [(tile, 1 if n > 128 else 2048 // tile)], n
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 0)
        seen.clear()
        full = fn(x, -1)
        assert [(c["TILE"], c["BLOCK"]) for k, c in seen] == [(256, 1)]
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 128)
        assert torch.equal(_bits(short), _bits(full)), (name, n)
        assert torch.equal(_bits(fn(x[5:6], -1)), _bits(short[5:6]))  # one row alone: the same bits
