"""cuda's row kernel stores the outputs that read no reduction (add_rms_norm's h = x + r) right
after its loads, before the reductions (EARLY), where a thread holds at most ROW_EARLY_WORDS words
of the row: their stores then overlap the reductions instead of following them (H100, runs 73-74
in docs/gpu_2026_11_26/README.md: add_rms_norm bf16 256 x 8192 5.14 -> 4.49 us).

Only when a value is stored moves: the early store computes the sweep's expression from the same
held tiles. What is tested here: which outputs the emitter stores early, the launcher's rule, the
bits of both forms (own and across chunks, EARLY or not) against the chunked fused kernel, and
that the empirical check runs the late form ("stored_late") and catches an early store that
rounds otherwise. Also here: the launcher counts every held input's words when it chooses the
form across chunks (add_rms_norm holds x and r), and rows of more than 6000 elements whose chunks pad
less than ROW_ACROSS_PAD go across at every grid (ROW_ACROSS_EVEN_MIN).
"""

from __future__ import annotations

import inspect

import pytest
import torch

from generated.cuda import add_rms_norm, rms_norm, softmax_held
from redgen.errors import EmpiricalMismatch
from redgen.pipeline import build_spec
from redgen.verify.empirical import run_empirical

SPEC = """op early_norm
in x[M, N] : f32 | bf16
in r[M, N] : f32 | bf16
in w[N] : f32 | bf16
param k = 2.0
out h[M, N] : like x
out g[M, N] : like x
out y[M, N] : like x
acc f32
reduce N: ss = sum((x + r) * (x + r))
s = x + r
rr = rsqrt(ss / N + 0.000001)
h = s * k
g = s * w
y = s * rr
tile N = 16
split N fixed_size 64
"""


def _launched(mod, name, *args, monkeypatch):
    """The kernel and constexprs of the one launch a call makes (recorded, not run)."""
    seen = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, a, consts: seen.append((kernel.fn.__name__, consts)))
    monkeypatch.setattr(mod, "_PLANS", {})
    getattr(mod, name)(*args)
    (kernel, consts), = seen
    return kernel, consts


def _add_args(m: int, n: int, dtype=torch.float32, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*s, generator=g).to(dtype) for s in ((m, n), (m, n), (n,)))


def test_only_outputs_that_read_no_reduction_and_only_held_inputs_are_stored_early(tmp_path):
    """h (a per-element local and a parameter) is stored early; g reads w, which the row kernel
    does not hold, and y reads the reduction: both stay in the output sweep. The empirical check
    runs the late form too, and an early store that rounds otherwise is a mismatch."""
    spec = tmp_path / "early_norm.red"
    spec.write_text(SPEC)
    built = build_spec(spec, "cuda", empirical=False)
    src = built.source
    at = src.index("    if EARLY:")
    early = src[at:src.index("    r_0_tot = ", at)]  # the own form's early stores
    assert "tl.store(out_0_at" in early and "out_1" not in early and "out_2" not in early
    assert src.count("if not EARLY:") == 2  # h in the sweep of each form, stored there only if late
    result = run_empirical(built.plan, built.source)
    assert result["status"] == "passed" and "stored_late" in result["paths"]
    stored = "tl.store(out_0_at, (v_0_v * p_0).to(out_0_ptr.dtype.element_ty), mask=ok)"
    assert stored in early
    planted = src[:at] + src[at:].replace(stored, stored.replace("p_0)", "p_0 * 1.0000001)"), 1)  # the early one
    with pytest.raises(EmpiricalMismatch, match="differ"):
        run_empirical(built.plan, planted)


def test_a_spec_without_such_outputs_has_no_early_form():
    for mod in (rms_norm, softmax_held):
        assert not hasattr(mod, "ROW_EARLY_WORDS")
        assert "EARLY" not in inspect.signature(mod._k_rows_row.fn).parameters
    assert "ROW_EARLY_WORDS" in add_rms_norm._KNOB_NAMES  # in the replay key


@pytest.mark.parametrize(("m", "n", "form", "kernel", "early"), [
    (2, 700, {}, "_k_rows_row", True),
    (2, 12000, {"ROW_ACROSS_MIN": 1 << 62, "ROW_ACROSS_EVEN_MIN": 1 << 62}, "_k_rows_row", True),  # 188 words
    (2, 20000, {"ROW_ACROSS_MIN": 1 << 62, "ROW_ACROSS_EVEN_MIN": 1 << 62}, "_k_rows_row", False),  # 316
    (2, 20000, {}, "_k_rows_across", True),  # 8 stacked chunks in 8 warps: 2 * 8 * 16 = 256 words
    (2, 700, {"ROW_EARLY_WORDS": -1}, "_k_rows_row", False),  # the empirical check's "stored_late"
])
def test_the_launcher_stores_early_where_the_row_leaves_room(m, n, form, kernel, early, monkeypatch):
    for k, v in form.items():
        monkeypatch.setattr(add_rms_norm, k, v)
    got = _launched(add_rms_norm, "add_rms_norm", *_add_args(m, n), monkeypatch=monkeypatch)
    assert (got[0], got[1]["EARLY"]) == (kernel, early)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize(("n", "across"), [(700, False), (9000, False), (9000, True)])
def test_early_and_late_stores_have_the_chunked_walks_bits(dtype, n, across, monkeypatch):
    """Both outputs, EARLY or not, in the own form and across chunks (the empirical check's forms),
    against the chunked fused kernel (ROW_MAX_TILES 0), bit for bit."""
    args = _add_args(2, n, dtype, seed=n)
    monkeypatch.setattr(add_rms_norm, "ROW_MAX_TILES", 0)
    want = add_rms_norm.add_rms_norm(*args)
    monkeypatch.undo()
    if across:
        monkeypatch.setattr(add_rms_norm, "ROW_ACROSS_MIN", 0)
    for words in (-1, 1 << 20):
        monkeypatch.setattr(add_rms_norm, "ROW_EARLY_WORDS", words)
        got = add_rms_norm.add_rms_norm(*args)
        assert all(torch.equal(a, b) for a, b in zip(want, got, strict=True)), (words, across)


def test_across_counts_every_held_inputs_words(monkeypatch):
    """On a long grid (past ROW_ACROSS_PROGRAMS and ROW_FEW_PROGRAMS) f32 rows of 20000 pad their
    eight stacked chunks by more than ROW_ACROSS_PAD, so they go across only where the own form would
    hold more than ROW_ACROSS_WORDS (160) words a thread: rms_norm holds 156, add_rms_norm x and r,
    312."""
    n = 20000
    x, r, w = _add_args(300, n)
    assert _launched(rms_norm, "rms_norm", x, w, monkeypatch=monkeypatch)[0] == "_k_rows_row"
    assert _launched(add_rms_norm, "add_rms_norm", x, r, w, monkeypatch=monkeypatch)[0] == "_k_rows_across"


@pytest.mark.parametrize(("m", "n", "kernel"), [
    (1, 8192, "_k_rows_across"), (300, 8192, "_k_rows_across"), (300, 6144, "_k_rows_across"),
    (1, 4096, "_k_rows_row"),  # one chunk
    (1, 5000, "_k_rows_row"),  # two chunks, but not past ROW_ACROSS_EVEN_MIN
    (300, 9000, "_k_rows_row"),  # 3 chunks of 4 stacked rows, padded by 7384
    (300, 12000, "_k_rows_across"),  # padded by 4384, less than ROW_ACROSS_PAD
    (300, 20000, "_k_rows_row"),  # 5 of 8, padded by 12768
])
def test_rows_that_pad_little_go_across_at_every_grid(m, n, kernel, monkeypatch):
    """ROW_ACROSS_EVEN_MIN (6000): a row past it whose stacked chunks pad less than ROW_ACROSS_PAD
    (6144) elements goes across on any grid (H100, runs 74-79: rows of 6144, 8192 and 12000; rows of
    5000 were as often slower across, rows of 9000 and 20000 slower); the empirical check's "row"
    form sets ROW_ACROSS_EVEN_MIN and ROW_ACROSS_MIN past every row."""
    x = torch.ones(m, n)
    assert _launched(softmax_held, "softmax_held", x, -1, monkeypatch=monkeypatch)[0] == kernel
    monkeypatch.setattr(softmax_held, "ROW_ACROSS_MIN", 1 << 62)
    monkeypatch.setattr(softmax_held, "ROW_ACROSS_EVEN_MIN", 1 << 62)
    assert _launched(softmax_held, "softmax_held", x, -1, monkeypatch=monkeypatch)[0] == "_k_rows_row"
