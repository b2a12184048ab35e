"""The combiner table (redgen/combiners.py) and the online-softmax combiner built on it.

softmax, log_softmax, logsumexp and cross_entropy use `reduce N: (m, s) = softmax_stats(x)`:
one pass over the row for the statistics. Accuracy, special values and bitwise batch
invariance of those generated modules are covered by test_norm_softmax.py,
test_reduce_ops.py and test_language.py; here: the table, the language statement, the
reference meaning, the one-pass kernels, the certificate and the ascend UB count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import torch

from redgen import combiners, ir, reference
from redgen.pipeline import build_spec, check_spec, plan_spec
from tests.tolerances import assert_accurate

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
ONLINE = ("softmax", "log_softmax", "logsumexp", "cross_entropy")


def randn(*shape, seed: int = 0) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


# --- the table ------------------------------------------------------------------------------------
def test_every_combiner_is_complete():
    assert ir.COMBINERS == tuple(combiners.COMBINERS)
    for c in combiners.COMBINERS.values():
        assert c.kind in combiners.KINDS, c.name
        assert c.body and c.body[-1].startswith("return "), c.name
        assert len(c.results) >= 1 and all(0 <= k < len(c.state) for k in c.results), c.name
        assert all(s.dtype in ("f32", "index") for s in c.state), c.name
        # the body reads only its parameters a0.., b0.. (the template names them so)
        params = {f"{p}{j}" for p in "ab" for j in range(len(c.state))}
        used = set(re.findall(r"\b[ab]\d\b", "\n".join(c.body)))
        assert used <= params and used, c.name
        v = torch.tensor([[[1.0], [3.0], [2.0]]], dtype=torch.float64)
        assert len(c.reference(v)) == len(c.results), c.name


def test_templates_do_not_branch_on_combiner_names():
    """Python decides, templates format: no combiner name appears in a reduction template."""
    for path in ("common/macros.j2", "cuda/module.py.j2", "ascend/module.py.j2", "ascend/macros.j2"):
        text = (ROOT / "templates" / path).read_text()
        for name in combiners.COMBINERS:
            assert not re.search(rf"['\"]{name}['\"]", text), (path, name)


def test_softmax_stats_combine_semantics():
    """The Triton body, run as Python on torch tensors: identity, -inf, +inf and NaN sides."""
    ns: dict = {}
    body = "\n".join("    " + line for line in combiners.SOFTMAX_STATS.body)

    class _TL:  # the few tl functions the body uses, on float64 tensors
        class PropagateNan:
            ALL = None

        @staticmethod
        def maximum(a, b, propagate_nan=None):
            return torch.maximum(a, b)

        @staticmethod
        def where(c, a, b):
            return torch.where(c, torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64))

        exp = staticmethod(torch.exp)

    # _rg_exp: the module's exp helper the body calls (templates/<target>/exp.py.j2)
    exec(f"def combine(a0, a1, b0, b1):\n{body}", {"tl": _TL, "_rg_exp": torch.exp}, ns)
    t = lambda *v: torch.tensor(v, dtype=torch.float64)  # noqa: E731
    inf, nan = float("inf"), float("nan")
    # identity on either side leaves a state unchanged
    m, s = ns["combine"](t(-inf), t(0.0), t(2.0), t(3.0))
    assert (m.item(), s.item()) == (2.0, 3.0)
    m, s = ns["combine"](t(2.0), t(3.0), t(-inf), t(0.0))
    assert (m.item(), s.item()) == (2.0, 3.0)
    # rescaling: (0, 1) + (1, 1) = (1, exp(-1) + 1)
    m, s = ns["combine"](t(0.0), t(1.0), t(1.0), t(1.0))
    assert m.item() == 1.0 and abs(s.item() - (1 + torch.exp(t(-1.0)).item())) < 1e-15
    # two -inf sides (a row of -inf): s = 0, not nan
    m, s = ns["combine"](t(-inf), t(1.0), t(-inf), t(1.0))
    assert m.item() == -inf and s.item() == 0.0
    # +inf: nan sum, as sum(exp(x - max)); NaN propagates
    assert torch.isnan(ns["combine"](t(1.0), t(1.0), t(inf), t(1.0))[1])
    m, s = ns["combine"](t(nan), t(1.0), t(1.0), t(1.0))
    assert torch.isnan(m) and torch.isnan(s)


# --- the statement and its checks -----------------------------------------------------------------
def test_one_reduction_binds_two_names():
    op = check_spec(SPECS / "softmax.red")
    assert len(op.reductions) == 1 and op.stages == 1
    r = op.reductions[0]
    assert (r.combiner, r.names) == ("softmax_stats", ("m", "s"))
    assert op.result("s") == (r, 1) and op.result("m") == (r, 0)


@pytest.mark.parametrize("name", ONLINE)
def test_reference_matches_torch(name):
    """The float64 meaning of the rewritten specs is torch's, special rows included."""
    x = randn(6, 50, seed=1).double() * 5
    x[0, :7] = float("-inf")
    x[1] = float("-inf")
    x[2, 3] = float("inf")
    x[3, 5] = float("nan")
    op = check_spec(SPECS / f"{name}.red")
    if name == "cross_entropy":
        t = torch.tensor([3, 1, 4, 1, 5, -100])
        got = reference.evaluate(op, {"x": x[:, :, None], "t": t[:, None]})["loss"][:, 0]
        want = torch.nn.functional.cross_entropy(x, t, reduction="none")
        assert torch.allclose(got, want, equal_nan=True), (got, want)  # rows of -inf, +inf, nan: nan
        return
    got = reference.evaluate(op, {"x": x[:, :, None]})["y"].squeeze(-1)
    want = {"softmax": torch.softmax, "log_softmax": torch.log_softmax, "logsumexp": torch.logsumexp}[name](x, -1)
    assert torch.allclose(got, want, equal_nan=True), (got, want)
    empty = reference.evaluate(op, {"x": torch.empty(2, 0, 1, dtype=torch.float64)})["y"].squeeze(-1)
    if name == "logsumexp":
        assert torch.equal(empty, torch.full((2,), float("-inf"), dtype=torch.float64))


# --- the generated modules ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["softmax", "log_softmax", "logsumexp"])
def test_statistics_read_the_row_once(name):
    """The fused kernel loads the input once per element for the statistics (and once more
    for an output over the reduce axis); main's two-reduction specs loaded it once per stage."""
    import importlib

    for target in ("cuda", "ascend"):
        mod = importlib.import_module(f"generated.{target}.{name}")
        text = Path(mod.__file__).read_text()
        fn = next(f for f in ast.parse(text).body if isinstance(f, ast.FunctionDef) and f.name == "_k_rows_fused")
        src = ast.get_source_segment(text, fn)
        # The statistics' walk loads at one site, or with UNROLL at two (its groups of tiles,
        # then the tiles after them) or three (cuda: the groups that end inside the chunk,
        # unmasked, then the one that may not, then the tiles after them), over disjoint
        # ranges; an output over N adds the sweep's one (masked tiles), cuda's twice: the sweep in
        # STAGES pipelined stages and unstaged, one of them compiled (the STAGES constexpr).
        sites = (3 if "gf = c0" in src else 2) if hasattr(mod, "UNROLL") else 1
        sweeps = 0 if name == "logsumexp" else 2 if "num_stages=STAGES" in src else 1
        loads = len(re.findall(r"tl\.load\(\s*in_0_ptr", src))  # a long load wraps after its "("
        assert loads == sites + sweeps, (target, name, loads)
        assert sweeps != 2 or target == "cuda"
        assert mod.CERTIFICATE["order"]["stages"] == 1
        assert mod.CERTIFICATE["order"]["combiner_kinds"] == {"softmax_stats": "scaled_pair"}
        assert "softmax_stats combines (max, scaled sum) pairs" in mod.CERTIFICATE["statement"]


def test_logsumexp_special_rows_both_targets():
    import generated.ascend.logsumexp as a
    import generated.cuda.logsumexp as c

    x = randn(5, 4133, seed=3) * 3
    x[0] = float("-inf")
    x[1, 17] = float("inf")
    x[2, 4100] = float("nan")
    x[3, :4096] = float("-inf")  # the first chunk all -inf, the second finite
    want = torch.logsumexp(x.double(), -1)
    for mod in (c, a):
        got = mod.logsumexp(x, -1)
        assert got[0] == float("-inf") and got[1] == float("inf") and torch.isnan(got[2])
        assert_accurate(got[3:], want[3:], torch.float32)
        # split path (cuda) and fused path give the same bits
        assert torch.equal(mod.logsumexp(x[3:4], -1), got[3:4])


def test_ascend_ub_counts_the_pair_state():
    plan = plan_spec(SPECS / "softmax.red", "ascend")
    # stage 0: 4 (m accumulator) + 16 (softmax_stats extra) + bf16 input 2 + its f32 copy 4 + 1 temporary 4
    assert plan.ub.bytes_per_elem == 30, plan.ub
    assert "softmax_stats state" in plan.ub.breakdown


def test_build_is_verified_for_both_targets():
    for target in ("cuda", "ascend"):
        built = build_spec(SPECS / "logsumexp.red", target, empirical=False)
        assert "softmax_stats" in built.certificate.order["combiners"]


def test_a_later_stage_reads_both_statistics():
    """A second stage reading m and s (the split path stores and reloads both totals): the
    build's empirical run checks the float64 meaning and bitwise equality across batch sizes,
    positions and both cuda paths."""
    built = build_spec(ROOT / "tests" / "specs" / "examples" / "softmax_entropy.red", "cuda")
    assert built.op.stages == 2
    assert built.certificate.empirical["status"] == "passed", built.certificate.empirical
