"""cuda's step combines (plan.Plan.step_walks): Welford's element combine with the count's
arithmetic once a tile.

var's walk combined each element with a division a lane (the weight 1 / n of the element); in a
chunk walk's whole groups every lane holds the same count, so `_welford_step` takes the weight as
one division for the tile (on an H200 var f32 256 x 40000 x 64: 989.6 -> 849.5 us, bits equal to the
body's at every point of run 174), and the lanes' count is the walk's own one value, set on the lanes
after those groups (run 182: var bf16 2048 x 65536 87.2 -> 80.8 us). Checked here under the
interpreter against the same spec emitted without it, on both kernels and paths, with ragged chunks,
a NaN and an infinity, and values far from zero (the mean's updates cancel there); the cols kernels
also at the blocks whose tiles load two and four together (plan.py, COLS_STEP_*).
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest
import torch

from redgen import combiners
from redgen.pipeline import emit_plan, plan_spec, prove_plan
from tests.load_source import load_source
from tests.tolerances import assert_accurate

CHUNK = 4096
N = 2 * CHUNK + 300  # three chunks, the last one's tail masked


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """var and std emitted with the body's combine everywhere (step_walks=())."""
    root = tmp_path_factory.mktemp("plain")
    out = {}
    for op in ("var", "std"):
        p = dataclasses.replace(plan_spec(f"specs/{op}.red", "cuda"), step_walks=())
        out[op] = load_source(root, f"plain_{op}", emit_plan(p, prove_plan(p)))
    return out


def _mod(op, target="cuda"):
    return importlib.import_module(f"generated.{target}.{op}")


def _same(a, b) -> bool:
    """Bit for bit, NaN included (torch.equal holds no NaN equal)."""
    width = {4: torch.int32, 2: torch.int16}[a.element_size()]
    return a.dtype == b.dtype and torch.equal(a.view(width), b.view(width))


def _rows(m: int, dtype, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(m, N, generator=g) * 3
    x[1] += 1e4  # far from zero: each update of the mean cancels most of its digits
    x[2, 5000] = float("nan")
    x[3, 17] = float("inf")
    return x.to(dtype)


def test_which_plans_take_the_step():
    for op in ("var", "std"):
        assert plan_spec(f"specs/{op}.red", "cuda").step_walks == ("welford",), op
        assert plan_spec(f"specs/{op}.red", "ascend").step_walks == (), op
    for op in ("sum", "logsumexp", "var_held", "argmax"):
        assert plan_spec(f"specs/{op}.red", "cuda").step_walks == (), op
    assert [c for c, rec in combiners.COMBINERS.items() if rec.step_body] == ["welford"]


def test_the_generated_walks_take_the_step():
    text = open(importlib.util.find_spec("generated.cuda.var").origin).read()
    # the count is the walk's seen (combiners.Combiner.step_count): the step neither takes nor returns it
    assert "def _welford_step(a0, a1, v, k):" in text
    assert "return a0 + d * w, a1 + 0.0 + d * d * k * w\n" in text
    # the whole groups of all four walks (rows and cols; partial and fused), and nowhere else
    assert text.count("= _welford_step(r_0_acc, r_0_qacc, in_0_v, seen)") == 4
    assert text.count("seen = tl.zeros([], tl.float32)") == 4
    # each sets the lanes' counts from seen once, after its whole groups
    assert text.count("r_0_cacc = r_0_cacc + seen\n") == 4
    assert "in its step form (_welford_step)" in text  # the certificate says why
    assert "_welford_step" not in open(importlib.util.find_spec("generated.ascend.var").origin).read()


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_the_bits_of_the_body(plain, dtype, monkeypatch):
    """Rows (K = 1) on both paths and with UNROLL 1, then columns: every bit the body's."""
    x = _rows(4, dtype)
    for op in ("var", "std"):
        new, old = _mod(op), plain[op]
        for m in (new, old):  # the walk, not the short rows' module
            monkeypatch.setattr(m, "SHORT_MAX", 0)
        fn, ref = getattr(new, op), getattr(old, op)
        y = fn(x, dim=1)
        assert _same(y, ref(x, dim=1)), op
        assert y[2].isnan() and y[3].isnan(), op
        want = getattr(x[[0, 1]].double(), op)(dim=1)
        assert_accurate(y[[0, 1]], want, dtype)
        for name, value in (("SPLIT_BELOW", 0), ("SPLIT_BELOW", 1 << 62), ("UNROLL", 1)):
            monkeypatch.setattr(new, name, value)
            assert _same(fn(x, dim=1), y), (op, name, value)
            assert _same(fn(x[1:2], dim=1), y[1:2]), (op, name, value)
        monkeypatch.undo()


def test_the_cols_kernels_give_the_bits_of_the_body(plain, monkeypatch):
    """K > 1: the reduce axis in the middle ([M, N, K]); column k of batch b is row 2b + k."""
    x = _rows(4, torch.float32, seed=1)
    xc = x.reshape(2, 2, N).transpose(1, 2).contiguous()
    for m in (_mod("var"), plain["var"]):
        monkeypatch.setattr(m, "SHORT_MAX", 0)
    new, old = _mod("var").var, plain["var"].var
    rows = new(x, dim=1)
    cols = new(xc, dim=1)
    assert _same(cols, old(xc, dim=1))
    ok = [0, 1]
    assert _same(cols.reshape(-1)[ok], rows[ok])
    monkeypatch.setattr(_mod("var"), "SPLIT_BELOW", 1 << 62)
    assert _same(new(xc, dim=1), cols)


@pytest.mark.parametrize("k", [16, 8], ids=lambda k: f"K{k}")
def test_the_cols_blocks_of_the_step_rule_give_the_bits_of_the_body(plain, k, monkeypatch):
    """K = 16: two tiles together under a register cap; K = 8: four (the plain module: one)."""
    x = _rows(2 * k, torch.bfloat16, seed=2)
    xc = x.reshape(2, k, N).transpose(1, 2).contiguous()  # column j of batch b is row k * b + j
    for op in ("var", "std"):
        new, old = _mod(op), plain[op]
        for m in (new, old):
            monkeypatch.setattr(m, "SHORT_MAX", 0)
        got = getattr(new, op)(xc, dim=1)
        assert _same(got, getattr(old, op)(xc, dim=1)), (op, k)
        assert _same(got.reshape(-1), getattr(new, op)(x, dim=1)), (op, k)  # a column's bits are its row's
        monkeypatch.undo()
