"""cuda's direct chunk partials (plan.Plan.direct): a reduction whose chunk partial needs no walk.

cross_entropy and nll_loss reduce `x[t]` (check.py's gather: max over where(position == t, x,
-inf)) and `max(t == ignore_index)` (a value that does not vary along the reduce axis). Walking
them cost three combines, two 64-bit compares and a target load an element (cross_entropy bf16
4096 x 32000: 422 us on an H200, torch 252). Each chunk's partial is now the element at t where the
chunk holds t (else -inf), and the value itself: the partial the walk gives, bit for bit. Checked
here under the interpreter against the same spec emitted with every reduction walked, in either
kernel, on either path, with targets at the chunks' edges, ignored and out of range; and the
ascend modules (their one kernel takes the same partials) against theirs walked.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util

import pytest
import torch
import torch.nn.functional as F  # noqa: N812

from redgen.pipeline import check_spec, emit_plan, plan_spec, prove_plan
from redgen.plan import direct_kind
from tests.load_source import load_source
from tests.tolerances import assert_accurate

CHUNK = 4096
N = 2 * CHUNK + 37  # three chunks, the last ragged
EDGES = (0, 1, CHUNK - 1, CHUNK, 2 * CHUNK - 1, 2 * CHUNK, N - 1)


def _walked_module(root, op, target):
    p = dataclasses.replace(plan_spec(f"specs/{op}.red", target), direct=())
    return load_source(root, f"walked_{target}_{op}", emit_plan(p, prove_plan(p)))


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    """cross_entropy and nll_loss emitted with every reduction walked (direct=()), as before."""
    root = tmp_path_factory.mktemp("walked")
    return {op: _walked_module(root, op, "cuda") for op in ("cross_entropy", "nll_loss")}


def _mods(op, target="cuda"):
    return importlib.import_module(f"generated.{target}.{op}")


def _inputs(m: int, n: int, dtype, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    x = (torch.randn(m, n, generator=g) * 3).to(dtype)
    t = torch.tensor([EDGES[i % len(EDGES)] for i in range(m)], dtype=torch.int64) % n
    return x, t


def test_which_reductions_are_direct():
    for op in ("cross_entropy", "nll_loss"):
        p = plan_spec(f"specs/{op}.red", "cuda")
        assert p.direct == ("ignored", "gather0_x"), op
        assert [direct_kind(p.op, p.op.reduction(r)) for r in p.direct] == ["constant", "gather"]
        assert plan_spec(f"specs/{op}.red", "ascend").direct == p.direct
    # every reduction direct: no chunk is walked, so the split path would only add a launch
    assert plan_spec("specs/nll_loss.red", "cuda").split_below == 0
    assert plan_spec("specs/cross_entropy.red", "cuda").split_below > 0
    for op in ("logsumexp", "amax", "argmax", "softmax", "sum"):
        assert not plan_spec(f"specs/{op}.red", "cuda").direct, op


def test_direct_kind_needs_an_idempotent_combiner_and_a_value_constant_along_the_axis(tmp_path):
    body = """op probe
in   x[M, N] : f32
in   s[M]    : f32
out  y[M]    : like x
reduce N: a = {comb}({expr})
y = a
"""
    cases = {("max", "s * 2"): "constant", ("min", "s"): "constant", ("max", "s + N"): "constant",
             ("sum", "s"): "", ("max", "x"): "", ("max", "x * s"): ""}
    for (comb, expr), want in cases.items():
        path = tmp_path / "probe.red"
        path.write_text(body.format(comb=comb, expr=expr))
        op = check_spec(path)
        assert direct_kind(op, op.reductions[0]) == want, (comb, expr)


def test_the_generated_walks_read_no_target():
    """The targets are loaded once a row per chunk, never element by element."""
    for op in ("cross_entropy", "nll_loss"):
        src = (importlib.util.find_spec(f"generated.cuda.{op}").origin)
        text = open(src).read()
        assert "in_1_v" not in text and "== in_1_v" not in text, op
        assert "in_1_r = tl.load(in_1_ptr + row_in_1, mask=row_ok, other=0)" in text
        assert "the chunk partials of ignored, x[t]" in text  # the certificate says why
    nll = open(importlib.util.find_spec("generated.cuda.nll_loss").origin).read()
    assert "_tree_" not in nll.split("def _k_rows_fused")[1].split("\ndef ")[0]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_the_bits_of_the_walked_partials(walked, dtype, monkeypatch):
    x, t = _inputs(len(EDGES) + 2, N, dtype)
    t[-2] = -100  # ignored: loss 0
    t[-1] = N + 5  # out of range, not ignored: nothing selected, loss inf (torch raises)
    for op in ("cross_entropy", "nll_loss"):
        new, old = getattr(_mods(op), op), getattr(walked[op], op)
        y = new(x, t, dim=1)
        assert torch.equal(y, old(x, t, dim=1)), op
        assert y[-2] == 0 and y[-1] == float("inf"), op
        ok = slice(0, len(EDGES))
        ref = F.cross_entropy if op == "cross_entropy" else F.nll_loss
        assert_accurate(y[ok], ref(x[ok].double(), t[ok], reduction="none"), dtype)
        for split_below in (0, 1 << 62):  # every row fused / every row split
            monkeypatch.setattr(_mods(op), "SPLIT_BELOW", split_below)
            assert torch.equal(new(x, t, dim=1), y), (op, split_below)
            assert torch.equal(new(x[2:3], t[2:3], dim=1), y[2:3]), (op, split_below)
        monkeypatch.undo()


def test_the_cols_kernel_gathers_the_same_bits(walked):
    """K > 1: the class axis in the middle ([M, N, K]); column k of batch b is row 2b + k."""
    x, t = _inputs(6, N, torch.float32, seed=1)
    x[1, 7] = float("nan")  # a NaN elsewhere in the row: the loss is nan (the max and sum), as torch's
    for op in ("cross_entropy", "nll_loss"):
        fn = getattr(_mods(op), op)
        rows = fn(x, t, dim=1)
        cols = fn(x.reshape(3, 2, N).transpose(1, 2).contiguous(), t.reshape(3, 2), dim=1)
        assert torch.equal(cols.reshape(-1)[[0, 2, 3, 4, 5]], rows[[0, 2, 3, 4, 5]]), op
        old = getattr(walked[op], op)(x.reshape(3, 2, N).transpose(1, 2).contiguous(), t.reshape(3, 2), dim=1)
        assert torch.equal(cols.reshape(-1)[[0, 2, 3, 4, 5]], old.reshape(-1)[[0, 2, 3, 4, 5]]), op
        assert cols.reshape(-1)[1].isnan() == old.reshape(-1)[1].isnan()
        if op == "cross_entropy":
            assert rows[1].isnan() and cols.reshape(-1)[1].isnan()


def test_a_constant_reduction_of_a_float_input(tmp_path):
    """A constant reduction over a float input without the reduce axis: its value, widened (a spec
    without a row kernel: a one-read spec of sum would hold its rows, whose walk combines each)."""
    path = tmp_path / "shifted.red"
    path.write_text("""op shifted
in   x[M, N] : f32 | bf16
in   s[M]    : f32 | bf16
out  y[M]    : like x
acc  f32
reduce N: (m, z) = softmax_stats(x)
reduce N: b = max(s * 2)
y = m + log(z) + b
split  N fixed_size 4096
""")
    p = plan_spec(path, "cuda")
    assert p.direct == ("b",)
    mod = load_source(tmp_path, "shifted_mod", emit_plan(p, prove_plan(p)))
    g = torch.Generator().manual_seed(2)
    x, s = torch.randn(3, 5000, generator=g), torch.randn(3, generator=g)
    s[1] = -0.0
    y = mod.shifted(x, s, dim=1)
    assert_accurate(y, torch.logsumexp(x.double(), 1) + s.double() * 2, torch.float32)
    assert torch.equal(mod.shifted(x[1:2], s[1:2], dim=1), y[1:2])


def test_ascend_takes_the_same_partials(tmp_path):
    """The ascend module (its one persistent kernel) against the same spec walked, bit for bit, on the
    natural grid and on one program; rows and columns."""
    x, t = _inputs(len(EDGES), N, torch.bfloat16, seed=3)
    t[1] = -100
    xc, tc = x[:6].reshape(3, 2, N).transpose(1, 2).contiguous(), t[:6].reshape(3, 2)
    for op in ("cross_entropy", "nll_loss"):
        mod, old = _mods(op, "ascend"), _walked_module(tmp_path, op, "ascend")
        new_fn, old_fn = getattr(mod, op), getattr(old, op)
        y = new_fn(x, t, dim=1)
        assert torch.equal(y, old_fn(x, t, dim=1)), op
        assert torch.equal(new_fn(xc, tc, dim=1), old_fn(xc, tc, dim=1)), op
        default = mod.CORES
        mod.CORES = 1
        try:
            assert torch.equal(new_fn(x, t, dim=1), y), op
        finally:
            mod.CORES = default
