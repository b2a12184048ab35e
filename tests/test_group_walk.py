"""cuda's rows walks fold an UNROLL group of argmax / argmin elements to one pair (Combiner.group).

Each lane's group of UNROLL tiles becomes (the group's extreme, the first position in the group
holding it or a NaN), which is combined into the lane's state once. The pair order is total, so
that is the pair the elements combined one by one select. Checked here under the interpreter
against torch, on the fused and split paths and with groups of one tile (UNROLL 1, as the
empirical check's forced paths run), without the row kernel that holds short grids of these f32
rows (which combines each element), at the places the fold could go wrong: a tie inside one
lane of a group (the scan must keep the first), a tie across groups and chunks, two NaNs in one
lane of a group, a row of the identity only (masked elements, at positions past the chunk, tie
with it), and a group cut short by the chunk's end (the groups that end inside their chunk fold
unmasked, the one after them masked). The group's pair then meets the lane's state strictly
(Combiner.walk_body: the lane's positions increase), and a lane of identity values alone takes its
first position after the walk (Combiner.walk_fix). A fold that keeps the last match, misses a NaN,
lets a tie take the later position or leaves out that first position fails it.
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest
import torch

from redgen import combiners
from redgen.pipeline import plan_spec

LANES = 256
UNROLL = 8
GROUP = LANES * UNROLL
CHUNK = 4096
N = CHUNK + 2000  # the second chunk's one group ends 48 elements past the row: its last tile is cut short


def _rows(op: str) -> torch.Tensor:
    big = 1e30 if op == "argmax" else -1e30
    ident = float("-inf") if op == "argmax" else float("inf")
    g = torch.Generator().manual_seed(5)
    x = torch.randn(6, N, generator=g)
    x[0, 300] = x[0, 300 + LANES] = x[0, 300 + 3 * LANES] = big  # one lane of one group, three tiles
    x[1, 10 + 5 * LANES] = x[1, 10 + GROUP + LANES] = x[1, CHUNK + 10] = big  # across groups and chunks
    x[2, 20 + 6 * LANES] = x[2, 20 + 2 * LANES] = float("nan")  # two NaNs in one lane: the earlier
    x[2, 5] = big
    x[3] = ident  # the identity everywhere: index 0
    x[4, N - 1] = big  # in the cut-short group
    x[5, CHUNK + 7 * LANES + 1] = x[5, CHUNK + 1] = big  # one lane of the cut-short group: the earlier
    return x


@pytest.fixture(scope="module", params=["argmax", "argmin"])
def op(request):
    return request.param


@pytest.mark.parametrize("path", ["natural", "walked", "fused", "unroll1"])
def test_grouped_walk_gives_torchs_index(op, path, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{op}")
    assert mod.UNROLL == UNROLL and mod.LANES == LANES
    if path != "natural":
        # these f32 rows are held by the row kernel (tests/test_row_once.py): the walks without it
        monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    if path == "fused":
        monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    if path == "unroll1":
        monkeypatch.setattr(mod, "UNROLL", 1)
    x = _rows(op)
    want = getattr(torch, op)(x, dim=1)
    assert want.tolist() == [300, 10 + 5 * LANES, 20 + 2 * LANES, 0, N - 1, CHUNK + 1]
    assert torch.equal(getattr(mod, op)(x, dim=1), want)
    assert torch.equal(getattr(mod, op)(x.bfloat16(), dim=1), getattr(torch, op)(x.bfloat16(), dim=1))


TAIL_N = CHUNK + 2100  # the second chunk: one whole group, then 52 elements one tile at a time


@pytest.mark.parametrize("path", ["natural", "fused"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_a_lane_of_identity_values_takes_its_first_position(op, path, dtype, monkeypatch):
    """The groups fold into a lane's state strictly (Combiner.walk_body), so a lane whose group
    elements are all the identity value keeps the identity's index; the tiles after the groups (52
    elements here) combine fully, so lanes 0-51 of a row of identity values hold their tail's position.
    After the walk a lane whose value is the identity takes its first position (Combiner.walk_fix)."""
    mod = importlib.import_module(f"generated.cuda.{op}")
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    if path == "fused":
        monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    big = 1e30 if op == "argmax" else -1e30
    ident = float("-inf") if op == "argmax" else float("inf")
    x = torch.full((4, TAIL_N), ident)
    x[1, CHUNK + 2048 + 10] = big  # in the second chunk's tail
    x[2, CHUNK + 2048 + 3] = float("nan")  # a NaN there
    x[3, CHUNK + 1000] = x[3, 2 * LANES + 7] = big  # a tie of two chunks: the first
    x = x.to(dtype)
    want = getattr(torch, op)(x, dim=1)
    assert want.tolist() == [0, CHUNK + 2058, CHUNK + 2051, 2 * LANES + 7]
    assert torch.equal(getattr(mod, op)(x, dim=1), want)


@pytest.mark.parametrize("wrong", ["last_match", "no_nan", "no_walk_fix", "walk_ties_later"])
def test_a_wrong_fold_is_caught(op, wrong, tmp_path):
    src = importlib.import_module(f"generated.cuda.{op}").__file__
    text = open(src).read()
    cmp = ">" if op == "argmax" else "<"
    old = {"last_match": "for u in tl.static_range(UNROLL - 1, -1, -1):",
           "no_nan": " | (r_0_gv[u] != r_0_gv[u])",
           "no_walk_fix": " < c1), c0 + ",
           "walk_ties_later": f"win = (b0 {cmp} a0) | ((b0 != b0)"}[wrong]
    new = {"last_match": "for u in tl.static_range(UNROLL):", "no_nan": "",
           "no_walk_fix": " < c0), c0 + ",
           "walk_ties_later": f"win = (b0 {cmp}= a0) | ((b0 != b0)"}[wrong]
    assert old in text
    path = tmp_path / f"_{op}_{wrong}.py"
    path.write_text(text.replace(old, new))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.ROW_MAX_TILES = 0  # the chunked walks, which fold the groups (f32 rows this short are held)
    x = _rows(op)
    assert not torch.equal(getattr(mod, op)(x, dim=1), getattr(torch, op)(x, dim=1))


def test_the_plan_groups_index_combiners_only():
    plan = plan_spec("specs/argmax.red", "cuda")
    assert plan.group_walk == ("argmax",) and plan.unmasked_stages == (0,)
    assert plan_spec("specs/argmin.red", "cuda").group_walk == ("argmin",)
    assert plan_spec("specs/amax.red", "cuda").group_walk == ()
    # softmax_stats folds too, with other bits (tests/test_softmax_fold.py)
    assert {c.name for c in combiners.COMBINERS.values() if c.group and c.group_exact} == {"argmax", "argmin"}
    assert {c.name for c in combiners.COMBINERS.values() if c.group and not c.group_exact} == {"softmax_stats"}
