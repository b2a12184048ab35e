"""Welford's combiner (redgen/combiners.py WELFORD) and the var and std built on it.

var and std reduce rows longer than 32768 elements with `reduce N: (mu, m2) = welford(x)`, one
read of the row. They give shorter rows to var_held and std_held, which make two passes over
a row held on chip. Tested here:
- the combine and the lane tree, run as Python on float64 tensors;
- the generated modules on Welford's path (SHORT_MAX = 0 keeps the interpreter's shapes small):
  accuracy against float64 on data whose mean dwarfs its spread, bitwise batch invariance,
  fused == split;
- the hand-over at 32768;
- the certificate.
"""

from __future__ import annotations

import importlib

import pytest
import torch

from redgen import combiners
from tests.tolerances import assert_accurate

F64 = torch.float64


class _TL:
    """The few tl functions the body and the tree use, on float64 tensors."""

    @staticmethod
    def where(c, a, b):
        return torch.where(c, torch.as_tensor(a, dtype=F64), torch.as_tensor(b, dtype=F64))

    @staticmethod
    def reshape(v, shape):
        return v.reshape(shape)


def _fn(name: str, params: str, lines) -> object:
    ns: dict = {}
    body = "\n".join("    " + line.replace("{pairs}", "") for line in lines)
    # _tree_sum: the pairwise sum tree of the module, here any float64 sum (the test compares values)
    glb = {"tl": _TL, "_tree_sum": lambda v, rows, lanes, log2: v.sum(dim=1)}
    exec(f"def {name}({params}):\n{body}", glb, ns)
    return ns[name]


COMBINE = _fn("combine", "a0, a1, a2, b0, b1, b2", combiners.WELFORD.body)
TREE = _fn("tree", "v0, v1, v2, ROWS, LANES, LOG2_LANES", combiners.WELFORD.tree)


def _state(x: torch.Tensor):
    """(mean, m2, count) of the elements of x, in float64."""
    if not x.numel():
        return torch.tensor(0.0, dtype=F64), torch.tensor(0.0, dtype=F64), torch.tensor(0.0, dtype=F64)
    m = x.mean()
    return m, ((x - m) ** 2).sum(), torch.tensor(float(x.numel()), dtype=F64)


def test_the_combine_merges_two_states_into_the_union_s():
    x = 5 + torch.randn(50, dtype=F64, generator=torch.Generator().manual_seed(1))
    for cut in (1, 17, 49):
        got = COMBINE(*_state(x[:cut]), *_state(x[cut:]))
        for g, w in zip(got, _state(x), strict=True):
            torch.testing.assert_close(g, w, rtol=1e-12, atol=1e-12)


def test_an_element_folds_in_as_x_0_1():
    """The lift (combiners.Component.lift): an element is the state (x, 0, 1)."""
    lift = tuple(float(c.lift.format(v="3.5", n="0")) for c in combiners.WELFORD.state)
    assert lift == (3.5, 0.0, 1.0)
    ident = tuple(float(c.identity) for c in combiners.WELFORD.state)
    a = _state(torch.tensor([1.0, 2.0], dtype=F64))
    got = COMBINE(*a, *(torch.tensor(v, dtype=F64) for v in lift))
    for g, w in zip(got, _state(torch.tensor([1.0, 2.0, 3.5], dtype=F64)), strict=True):
        assert torch.equal(g, w)
    assert ident == (0.0, 0.0, 0.0)


def test_the_identity_leaves_a_state_unchanged_bit_for_bit_and_two_empties_stay_empty():
    a = _state(torch.tensor([1.25, -3.0, 7.5], dtype=F64))
    e = _state(torch.tensor([], dtype=F64))
    for got in (COMBINE(*a, *e), COMBINE(*e, *a)):
        assert all(torch.equal(g, w) for g, w in zip(got, a, strict=True))
    assert [float(v) for v in COMBINE(*e, *e)] == [0.0, 0.0, 0.0]  # no 0 / 0


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_nan_and_infinity_leave_m2_not_finite(bad):
    """One combine with an infinity gives an infinite m2; the lane tree's inf - inf then makes
    it NaN (test_a_row_holding_nan_or_an_infinity_is_nan)."""
    a = _state(torch.tensor([1.0, 2.0], dtype=F64))
    b = (torch.tensor(bad, dtype=F64), torch.tensor(0.0, dtype=F64), torch.tensor(1.0, dtype=F64))
    assert not COMBINE(*a, *b)[1].isfinite()


def test_the_lane_tree_gives_the_merge_of_its_lanes():
    """The tree (sums of counts, of count * mean, then of m2 + count * (mean - M)^2) equals the
    merge of the lanes' states, lanes with no element (count 0) included."""
    g = torch.Generator().manual_seed(2)
    rows, lanes = 3, 8
    x = 100 + torch.randn(rows, lanes, 5, dtype=F64, generator=g)
    counts = torch.randint(0, 6, (rows, lanes), generator=g)
    counts[0, :3] = 0
    states = [[_state(x[r, j, : counts[r, j]]) for j in range(lanes)] for r in range(rows)]
    v = [torch.stack([torch.stack([s[k] for s in row]) for row in states]) for k in range(3)]
    mean, m2, n = TREE(*v, rows, lanes, 3)
    for r in range(rows):
        want = _state(torch.cat([x[r, j, : counts[r, j]] for j in range(lanes)]))
        torch.testing.assert_close(torch.stack([mean[r], m2[r], n[r]]), torch.stack(want), rtol=1e-12, atol=1e-9)
    empty = TREE(*(torch.zeros(1, lanes, dtype=F64) for _ in range(3)), 1, lanes, 3)
    assert [float(t) for t in empty] == [0.0, 0.0, 0.0]


# --- the generated modules on Welford's path ---------------------------------------------------
OPS = {"var": lambda x, d: x.var(d), "std": lambda x, d: x.std(d)}


@pytest.fixture(params=list(OPS))
def welford(request, monkeypatch):
    """(op, its module) with every row on this module's own path (Welford's), not the held op's."""
    mod = importlib.import_module(f"generated.cuda.{request.param}")
    monkeypatch.setattr(mod, "SHORT_MAX", 0)
    return request.param, mod


def _x(*shape, dtype=torch.float32, seed=0):
    # a mean 1000 times the spread: sum(x^2) - sum(x)^2 / N would cancel every digit in f32
    return (1000 + torch.randn(*shape, generator=torch.Generator().manual_seed(seed))).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize(("shape", "dim"), [((3, 600), 1), ((2, 300, 5), 1), ((4, 1), 1), ((3, 4500), -1)])
def test_accurate_where_the_mean_dwarfs_the_spread(welford, dtype, shape, dim):
    op, mod = welford
    x = _x(*shape, dtype=dtype)
    assert_accurate(getattr(mod, op)(x, dim), OPS[op](x.double(), dim), dtype)


def test_batch_invariant_bit_for_bit_rows_and_columns(welford):
    op, mod = welford
    fn = getattr(mod, op)
    x = _x(6, 4500, seed=3)
    assert torch.equal(fn(x[2:3], 1), fn(x, 1)[2:3])
    c = _x(5, 300, 6, seed=4)
    assert torch.equal(fn(c[1:2], 1), fn(c, 1)[1:2])


def test_the_fused_and_split_paths_agree_bit_for_bit(welford, monkeypatch):
    op, mod = welford
    fn = getattr(mod, op)
    x = _x(2, 9000, seed=5)  # three chunks of 4096
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    fused = fn(x, 1)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 1 << 62)
    assert torch.equal(fn(x, 1), fused)
    assert_accurate(fused, OPS[op](x.double(), 1), torch.float32)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_a_row_holding_nan_or_an_infinity_is_nan(welford, bad):
    """As torch (and the two-pass formula): wherever the value sits in the walk, in one lane of
    three or as a row's only element."""
    op, mod = welford
    x = _x(4, 700, seed=7)
    x[0, 0], x[1, 699], x[2, 300] = bad, bad, bad
    y = getattr(mod, op)(x, 1)
    assert y[:3].isnan().all() and y[3].isfinite()
    assert getattr(mod, op)(torch.tensor([[bad]]), 1, correction=0).isnan().all()


@pytest.mark.parametrize("op", list(OPS))
def test_rows_of_at_most_32768_go_to_the_held_op(op, monkeypatch):
    """The hand-over compares N with 32768 alone; the held op's bits are its own."""
    mod = importlib.import_module(f"generated.cuda.{op}")
    held = importlib.import_module(f"generated.cuda.{op}_held")
    assert mod._short_module() is held and mod.SHORT_MAX == 32768
    x = _x(2, 40, seed=6)
    assert torch.equal(getattr(mod, op)(x, 1), getattr(held, f"{op}_held")(x, 1))
    called = []
    real = held.__dict__[f"{op}_held"]
    monkeypatch.setattr(held, f"{op}_held", lambda *a, **k: called.append(1) or real(*a, **k))
    getattr(mod, op)(_x(1, 32768), 1)
    assert called == [1]
    getattr(mod, op)(_x(1, 32769), 1)
    assert called == [1]  # 32769: this module's own (Welford) kernels


@pytest.mark.parametrize("op", list(OPS))
def test_the_certificate_states_the_combine_and_the_hand_over(op):
    cert = importlib.import_module(f"generated.cuda.{op}").CERTIFICATE
    statement = cert["statement"]
    assert f"N <= 32768: op {op}_held's order" in statement
    assert combiners.WELFORD.rule in statement
    assert cert["order"]["combiner_kinds"] == {"welford": "moments"}
