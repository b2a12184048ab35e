"""The cols kernels of an op whose combiners are all order-free (argmax, argmin) walk a row of at
most LANES elements one element after another, one lane a column (TILE 1), where the view holds
FREE_COLS_MIN columns or more, FREE_COLS_K or more a batch row, and a longer row of one chunk in
FREE_COLS_LONG_TILE lanes where it holds FREE_COLS_LONG_MIN columns, FREE_COLS_LONG_K a batch row
(plan.Plan.free_cols). Any walk of a total order selects the same state, so the bits are the
TILE-lane walk's: these tests compare the two at lengths around every tile the walk takes, with ties,
NaNs and zeros of both signs, and check which launches take it and that the empirical check compares
it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import torch

from redgen import plan
from redgen.pipeline import build_spec
from redgen.verify.empirical import case as empirical_case
from tests.launch_spy import knobs, launches

ROOT = Path(__file__).resolve().parent.parent
LENGTHS = (1, 5, 8, 9, 35, 128, 129, 200, 256, 257, 1000, 4096)


def _tricky(n: int, gen: torch.Generator) -> torch.Tensor:
    """[2, n, 3]: column 0 random, column 1 with its extreme twice (a tie), column 2 with a NaN
    after a tie of +0.0 and -0.0 (the NaN wins; the zeros tie)."""
    x = torch.randn(2, n, 3, generator=gen)
    if n > 2:
        x[:, n - 1, 1] = x[:, 1, 1] = 9.0
        x[:, 0, 2], x[:, 1, 2] = -0.0, 0.0
        x[:, n - 2, 2] = float("nan")
    return x


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_the_one_lane_walk_gives_the_tile_walks_bits(name, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn, want = getattr(mod, name), getattr(torch, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(0)
    for n in LENGTHS:
        x = _tricky(n, gen)
        seen.clear()
        tiled = fn(x, 1)  # 6 columns: the TILE walk
        assert [c["TILE"] for k, c in seen if k == "_k_cols_fused"] == [mod._tile(n)], n
        seen.clear()
        with knobs(mod, FREE_COLS_MIN=0, FREE_COLS_K=0, FREE_COLS_LONG_MIN=0, FREE_COLS_LONG_K=0,
                   FREE_COLS_FLAT_MIN=0):
            free = fn(x, 1)
        lanes = 1 if n <= 256 else plan.FREE_COLS_LONG_TILE
        assert [c["TILE"] for k, c in seen if k == "_k_cols_fused"] == [lanes], n
        assert torch.equal(free, tiled), (name, n)
        assert torch.equal(free, want(x, 1)), (name, n)


def test_which_views_take_the_one_lane_walk(monkeypatch):
    """From FREE_COLS_MIN columns (M * K; FREE_COLS_FLAT_MIN at a short row and K), FREE_COLS_K a batch
    row, at rows of at most LANES; a natural
    call there launches TILE 1 in blocks of FREE_COLS_SMALL_BLOCK columns below FREE_COLS_SMALL columns,
    else FREE_COLS_BLOCK, and gives torch's indices."""
    mod = importlib.import_module("generated.cuda.argmax")
    at, below = plan.FREE_COLS_MIN, plan.FREE_COLS_MIN - 1
    assert mod._schedule(1, 256, at, 4)[3] == plan.FREE_COLS_SMALL_BLOCK
    assert mod._schedule(1, 256, plan.FREE_COLS_SMALL, 4)[3] == plan.FREE_COLS_BLOCK
    assert mod._schedule(at, 8, 1, 4)[2] == "rows"  # K 1: the rows kernels (FREE_COLS_K 2: any K > 1)
    assert mod._free_cols(1, 256, below) == mod._free_cols(1, 257, at) == 0
    # from FREE_COLS_FLAT_MIN columns at rows of at most SHORT_TILE_MAX and a K below COLS_FLAT_BELOW
    flat, k, n = plan.FREE_COLS_FLAT_MIN, plan.COLS_FLAT_BELOW - 1, mod.SHORT_TILE_MAX
    assert flat < at and mod._free_cols(-(-flat // k), n, k) == mod._free_cols(flat // 8, 16, 8) == 1
    assert mod._free_cols(flat // 8 - 1, 16, 8) == mod._free_cols(flat // 8, n + 1, 8) == 0
    assert mod._free_cols(1, 16, flat) == mod._free_cols(flat // (k + 1), 16, k + 1) == 0  # K past it: FREE_COLS_MIN
    # longer rows of one chunk: from FREE_COLS_LONG_MIN columns, FREE_COLS_LONG_K a batch row
    at, k = plan.FREE_COLS_LONG_MIN, plan.FREE_COLS_LONG_K
    assert mod._schedule(1, 257, at, 4)[3] == mod._schedule(1, 4096, at, 4)[3] == plan.FREE_COLS_LONG_BLOCK
    assert mod._free_cols(1, 4096, at) == plan.FREE_COLS_LONG_TILE
    assert mod._free_cols(1, 4097, at) == mod._free_cols(1, 257, at - 1) == mod._free_cols(at, 257, k - 1) == 0
    seen = launches(mod, monkeypatch)
    x = torch.randn(1, 8, plan.FREE_COLS_MIN, generator=torch.Generator().manual_seed(1))
    got = mod.argmax(x, 1)
    assert [(k, c["TILE"], c["BLOCK"]) for k, c in seen] == [("_k_cols_fused", 1, plan.FREE_COLS_SMALL_BLOCK)]
    assert torch.equal(got, torch.argmax(x, 1))


@pytest.mark.parametrize(("name", "free"), [
    ("argmax", True), ("argmin", True),
    ("amax", False), ("sum", False), ("softmax_held", False),  # a max over floats is not order-free here
])
def test_which_plans_walk_one_lane_a_column(name, free):
    built = build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False)
    assert built.plan.free_cols is free
    assert ("FREE_COLS_MIN = " in built.source) is free
    assert ("(its free_cols form)" in built.source) is free  # the certificate says so
    case = empirical_case(built.plan)
    assert ("free_cols" in case.get("cols_forms", {})) is free
    ascend = build_spec(ROOT / "specs" / f"{name}.red", "ascend", empirical=False)
    assert not ascend.plan.free_cols and "FREE_COLS" not in ascend.source


@pytest.mark.parametrize(("name", "tampered"), [("argmax", False), ("argmax", True), ("argmin", True)])
def test_the_empirical_check_compares_the_one_lane_walk(name, tampered, monkeypatch):
    """Its free_cols form (Target.empirical_cols_forms) runs at every length at K > 1: a one-lane
    walk that gave other bits than the natural call fails the check with the form's name."""
    from redgen.verify.worker import _Runner, check, load_op

    form, knob = "free_cols", "FREE_COLS_K"
    spec = empirical_case(build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False).plan)
    spec["inputs"][0]["dtypes"] = ["f32"]
    spec["N"] = {"chunk_tail": 300, "chunks": 300, "prime": 300, "tile": 35}
    spec["batch_sizes"], spec["after_sizes"], spec["positions"] = [1, 2], [1, 3], [0]
    mod = importlib.import_module(f"generated.cuda.{name}")
    plain = getattr(mod, name)

    def walked(x, dim, **kw):
        y = plain(x, dim, **kw)
        if tampered and getattr(mod, knob) == 0 and x.shape[-1] > 1:
            y = y ^ 1  # another index, in the one-lane walk only
        return y

    monkeypatch.setattr(mod, name, walked)
    run = _Runner(mod, spec)
    assert list(run.cols_forms) == [form]
    failure, compared = check(run, spec, load_op(spec))
    if tampered:
        assert failure == f"the {form} form and the natural call differ (f32, N=300, K=3)"
    else:
        assert failure is None and compared > 4
