"""cuda's chunk walks fold softmax_stats' UNROLL groups (Combiner.group_exact False).

Each lane's group of UNROLL consecutive tiles becomes one (max, sum) state: M the max of its
elements, S the sum of exp(x - M) over them in order (0 where M is -inf), combined into the
lane's state once. One exp an element instead of two, and other bits than combining the
elements one by one: the groups are part of the order, so the rows and the cols kernels both
fold them (a row's bits must not depend on K), the fused and the split paths alike, and UNROLL
is frozen. Checked here under the interpreter, on the walk module itself (SHORT_MAX 0: the held
op takes short rows otherwise): the fold happens (UNROLL 1 gives other bits), stays accurate,
gives one row the same bits alone or in a batch, in either kernel and on either path; -inf, NaN
and +inf rows and groups cut short by the chunk's end; and a fold without its -inf guard fails.
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest
import torch

from redgen.pipeline import plan_spec
from redgen.verify.proof import prove
from tests.tolerances import assert_accurate

LANES = 256
UNROLL = 8
CHUNK = 4096
N = CHUNK + 2000  # chunk 0: two whole groups; chunk 1: one group cut short (2000 > 7 * 256), no tail
N_TAIL = CHUNK + 1500  # chunk 1: no group (1500 < 7 * 256 + 1): its tiles one by one


@pytest.fixture
def lse(monkeypatch):
    mod = importlib.import_module("generated.cuda.logsumexp")
    assert mod.UNROLL == UNROLL and mod.LANES == LANES
    monkeypatch.setattr(mod, "SHORT_MAX", 0)
    return mod


def _rows(n: int, m: int = 5, seed: int = 3) -> torch.Tensor:
    # Each row shifted by its float64 logsumexp: the results lie near 0, where a float32 ulp is far
    # below the sum's rounding (near 16 the final m + log(s) rounds most such differences away).
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(m, n, generator=g, dtype=torch.float64) * 4
    return (x - torch.logsumexp(x, dim=1, keepdim=True)).float()


def test_the_fold_changes_the_bits_and_stays_accurate(lse, monkeypatch):
    x = _rows(N)
    y = lse.logsumexp(x, dim=1)
    assert_accurate(y, torch.logsumexp(x.double(), dim=1), torch.float32)
    xb = x.bfloat16()
    assert_accurate(lse.logsumexp(xb, dim=1), torch.logsumexp(xb.double(), dim=1), torch.bfloat16)
    monkeypatch.setattr(lse, "UNROLL", 1)  # groups of one tile: each element combined
    assert not torch.equal(lse.logsumexp(x, dim=1), y)


@pytest.mark.parametrize("n", [N, N_TAIL])
def test_a_row_has_the_same_bits_alone_in_a_batch_on_either_path_and_kernel(lse, monkeypatch, n):
    x = _rows(n, m=6)
    y = lse.logsumexp(x, dim=1)
    assert torch.equal(lse.logsumexp(x[2:3], dim=1), y[2:3])
    for split_below in (0, 1 << 62):  # every row fused / every row split
        monkeypatch.setattr(lse, "SPLIT_BELOW", split_below)
        assert torch.equal(lse.logsumexp(x, dim=1), y)
    # The cols kernel (K > 1): the reduce axis in the middle, each column one of the rows.
    cols = x.reshape(2, 3, n).transpose(1, 2).contiguous()  # [2, n, 3], column k of batch b is row 3b + k
    yc = lse.logsumexp(cols, dim=1)
    assert torch.equal(yc.reshape(-1), y)


def test_special_rows(lse):
    x = _rows(N, m=6)
    x[0] = float("-inf")  # every group's max -inf: S 0, the row -inf
    x[1, 5] = float("nan")  # in a whole group
    x[2, CHUNK + 1999] = float("nan")  # in the group cut short
    x[3, 100] = float("inf")  # S nan, the row +inf (the spec's where)
    x[4, :CHUNK] = float("-inf")  # chunk 0 all -inf, chunk 1 finite
    x[5, CHUNK:] = float("-inf")  # and the other way round
    y = lse.logsumexp(x, dim=1)
    want = torch.logsumexp(x.double(), dim=1)
    assert y[0] == float("-inf") and y[1].isnan() and y[2].isnan() and y[3] == float("inf")
    assert_accurate(y[4:], want[4:], torch.float32)


def test_a_fold_without_its_guard_is_caught(lse, tmp_path):
    text = open(lse.__file__).read()
    guard = 'r_0_gs = tl.where(r_0_gm == float("-inf"), 0.0, r_0_gs)'
    assert guard in text
    path = tmp_path / "_lse_no_guard.py"
    path.write_text(text.replace(guard, "pass"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.SHORT_MAX = 0
    x = _rows(N, m=2)
    # The first group all -inf, the second not: exp(-inf - -inf) is nan, and the guard makes the
    # group's S 0; without it the lane's sum is nan * 0 after the next group's rescale.
    x[1, : LANES * UNROLL] = float("-inf")
    assert lse.logsumexp(x, dim=1)[1].isfinite()
    assert mod.logsumexp(x, dim=1)[1].isnan()


@pytest.mark.parametrize("spec", ["logsumexp", "cross_entropy"])
def test_the_plan_and_the_certificate_state_the_groups(spec):
    # cross_entropy's other reductions are direct (plan.Plan.direct): its walk is softmax_stats alone
    plan = plan_spec(f"specs/{spec}.red", "cuda")
    assert plan.group_walk == plan.order_groups == ("softmax_stats",)
    assert plan.cols_unroll == UNROLL  # the cols kernels fold groups of the rows walks' UNROLL
    cert = prove(plan)
    assert cert.order["groups"] == {"softmax_stats": UNROLL}
    assert "groups of UNROLL (8; the cols kernels' COLS_UNROLL, 8 too) consecutive tiles" in cert.statement


def test_which_plans_fold():
    # A row kernel combines each element (softmax_held, logsumexp_held, softmax, log_softmax); the
    # walks of a spec with outputs over the reduce axis are not folded (run 165).
    for spec in ("softmax_held", "logsumexp_held", "softmax", "log_softmax"):
        p = plan_spec(f"specs/{spec}.red", "cuda")
        assert p.group_walk == () and p.cols_unroll in (0, 1), spec
    argmax = plan_spec("specs/argmax.red", "cuda")
    assert argmax.group_walk == ("argmax",) and argmax.order_groups == () and argmax.cols_unroll == 1
