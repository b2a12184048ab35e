"""cuda's rows walks of 16-bit rows of several chunks take groups of ROWS_TAIL_UNROLL tiles where their
last chunk would walk more tiles alone, past its groups of UNROLL, than such a group holds (redgen/plan.py).

UNROLL shapes no order where the module has the rule (Plan.rows_tail: no combiner's groups fold with other
bits than one by one; the certificate's UNROLL note): every tile once, in increasing order. specs/argmax.red
and argmin.red tune it to 4 (H200 runs 240-241, docs/gpu_2026_12_02/README.md: their bf16 rows of 32000,
whose last chunk walked 5 of its 13 tiles alone; bits equal to torch's at every point timed). What is
tested here: which calls take it, that the replay key holds it, which plans have it, and the interpreter's
indices with and without it.
"""

from __future__ import annotations

import pytest
import torch

from generated.cuda import argmax, argmin, logsumexp, softmax
from generated.cuda import sum as sum_mod
from redgen.pipeline import plan_spec


def _walk_unroll(mod, monkeypatch, n: int, dtype) -> set[int]:
    """The UNROLL of every rows walk a call over rows of `n` launches (the launches stubbed out: only
    the launcher's decisions are read; no recorded call replays)."""
    ran = []
    monkeypatch.setattr(mod, "_PLANS", {})
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, args, consts: ran.append((kernel.fn.__name__, consts)))
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0, raising=False)  # the chunked walks (short grids hold rows)
    monkeypatch.setattr(mod, "SHORT_MAX", 0, raising=False)  # this op's own walks at every length
    getattr(mod, mod.__name__.rsplit(".", 1)[1])(torch.empty(3, n, dtype=dtype), dim=1)
    return {c["UNROLL"] for name, c in ran if name.startswith("_k_rows_") and "UNROLL" in c}


@pytest.mark.parametrize("mod", [argmax, argmin], ids=["argmax", "argmin"])
@pytest.mark.parametrize(
    ("n", "dtype", "unroll"),
    [
        (32000, torch.bfloat16, 4),  # the last chunk: 13 tiles, one group of 8 and 5 alone
        (20000, torch.bfloat16, 4),  # 15 tiles: 7 alone
        (50000, torch.float16, 8),  # 4 tiles alone: no more than a group of 4 (1024 x 50000 lost 1%)
        (151936, torch.bfloat16, 8),  # 2 alone
        (16384, torch.bfloat16, 8),  # whole chunks: none alone
        (32000, torch.float32, 8),  # f32 lost (8 and 1024 rows of 32000)
        (3000, torch.bfloat16, 8),  # one chunk: not the rule's
    ],
)
def test_which_walks_take_groups_of_four(mod, n, dtype, unroll, monkeypatch):
    assert (mod.ROWS_TAIL_UNROLL, mod.UNROLL) == (4, 8)
    assert _walk_unroll(mod, monkeypatch, n, dtype) == {unroll}


@pytest.mark.parametrize("mod", [softmax, sum_mod], ids=["softmax", "sum"])
def test_the_other_modules_keep_unroll(mod, monkeypatch):
    """Their default, 0: never (a spec's tune sets it)."""
    assert mod.ROWS_TAIL_UNROLL == 0
    assert _walk_unroll(mod, monkeypatch, 32000, torch.bfloat16) == {mod.UNROLL}


def test_the_replay_key_holds_the_knob():
    import inspect

    for mod in (argmax, argmin, softmax, sum_mod):
        assert "ROWS_TAIL_UNROLL" in inspect.getsource(mod._knobs)


def test_which_plans_have_the_rule():
    """Not where UNROLL's groups are part of the order (logsumexp's softmax_stats fold): there the
    certificate fixes UNROLL, and a second group size would be a second order."""
    assert plan_spec("specs/argmax.red", "cuda").rows_tail
    lse = plan_spec("specs/logsumexp.red", "cuda")
    assert lse.order_groups and not lse.rows_tail
    assert not hasattr(logsumexp, "ROWS_TAIL_UNROLL")
    assert not plan_spec("specs/argmax.red", "ascend").rows_tail


@pytest.mark.parametrize("mod", [argmax, argmin], ids=["argmax", "argmin"])
def test_groups_of_four_give_torchs_indices(mod, monkeypatch):
    """Under the interpreter, bf16 rows of 20000 (their last chunk walks 7 tiles alone under groups of 8)
    with and without the rule against torch: a NaN in the last chunk's tail, a tie across it, a row of
    the identity."""
    op = mod.__name__.rsplit(".", 1)[1]
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    x = torch.randn(3, 20000, generator=torch.Generator().manual_seed(7)).bfloat16()
    x[0, 19990] = float("nan")
    x[2, 16390] = x[2, 19999] = 100.0 if op == "argmax" else -100.0
    x[1] = float("-inf") if op == "argmax" else float("inf")
    want = getattr(torch, op)(x, dim=1)
    got = getattr(mod, op)(x, dim=1)
    monkeypatch.setattr(mod, "ROWS_TAIL_UNROLL", 0)
    assert torch.equal(got, want) and torch.equal(getattr(mod, op)(x, dim=1), want)
