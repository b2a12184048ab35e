"""Ops with outputs over the reduce axis: softmax, log_softmax, rms_norm, layer_norm.

The generated modules of both targets run under the Triton interpreter (CPU).
Accuracy is checked against a float64 torch reference at the tolerances of
tests/tolerances.py; batch invariance bit for bit (torch.equal): a row alone and
inside batches of 2, 3, 7 and 64, with N > the 4096-element chunk so several
chunks exist, on each cuda path (SPLIT_BELOW: 0 fused, 1 << 62 split) and several
ascend grids (CORES). Shapes are small: every program instance costs milliseconds.
"""

from __future__ import annotations

import pytest
import torch

from generated.ascend import layer_norm as a_layer_norm
from generated.ascend import log_softmax as a_log_softmax
from generated.ascend import rms_norm as a_rms_norm
from generated.ascend import softmax as a_softmax
from generated.cuda import layer_norm as c_layer_norm
from generated.cuda import log_softmax as c_log_softmax
from generated.cuda import rms_norm as c_rms_norm
from generated.cuda import softmax as c_softmax
from tests.tolerances import assert_accurate

CUDA = {"softmax": c_softmax, "log_softmax": c_log_softmax, "rms_norm": c_rms_norm, "layer_norm": c_layer_norm}
ASCEND = {"softmax": a_softmax, "log_softmax": a_log_softmax, "rms_norm": a_rms_norm, "layer_norm": a_layer_norm}
OPS = tuple(CUDA)
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
CHUNK = 4096  # `split N fixed_size 4096` in the shipped specs
N_CHUNKS = CHUNK + 37  # two chunks, the last one ragged
# (target, knobs): every way a row can be computed. cuda holds a row of N_CHUNKS on chip (the
# row kernel, its natural path) for the norms (softmax's rows of 4096 at most: it walks the
# chunks there); ROW_MAX_TILES = 0 makes it walk the chunks, fused or split.
# UNROLL: tiles a chunk walk loads together (1: one at a time; 3 does not divide a chunk's 16).
VARIANTS = [("cuda", {"SPLIT_BELOW": 0, "ROW_MAX_TILES": 0, "UNROLL": 1}),
            ("cuda", {"SPLIT_BELOW": 1 << 62, "ROW_MAX_TILES": 0}),
            ("cuda", {"SPLIT_BELOW": 0, "ROW_MAX_TILES": 0, "UNROLL": 3}),
            ("cuda", {}), ("ascend", {"CORES": 1}), ("ascend", {"CORES": 8}), ("ascend", {"CORES": 40})]
VARIANT_IDS = ["cuda-fused", "cuda-split", "cuda-fused-unroll3", "cuda-row", "ascend-grid1", "ascend-grid8",
               "ascend-grid40"]


@pytest.fixture(params=["cuda", "ascend"])
def mods(request):
    return CUDA if request.param == "cuda" else ASCEND


@pytest.fixture(params=VARIANTS, ids=VARIANT_IDS)
def variant(request, monkeypatch):
    """The modules of one target with one path/grid forced (restored afterwards)."""
    target, knobs = request.param
    mods = CUDA if target == "cuda" else ASCEND
    for mod in mods.values():
        for knob, value in knobs.items():
            monkeypatch.setattr(mod, knob, value)
    return mods


def randn(*shape, dtype=torch.float32, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


def params_for(x: torch.Tensor, dims: tuple[int, ...], seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    shape = tuple(x.shape[d] for d in dims)
    return randn(*shape, dtype=x.dtype, seed=seed), randn(*shape, dtype=x.dtype, seed=seed + 1)


def call(mods, op: str, x: torch.Tensor, dim, **kw):
    """Run `op` over `dim`; the norms get weight (and bias) of the normalized dims' shape."""
    if op in ("softmax", "log_softmax"):
        return getattr(mods[op], op)(x, dim, **kw)
    dims = tuple(d % x.ndim for d in ((dim,) if isinstance(dim, int) else dim))
    w, b = params_for(x, dims)
    if op == "rms_norm":
        return mods[op].rms_norm(x, w, dim, **kw)
    return mods[op].layer_norm(x, w, b, dim, **kw)


def reference(op: str, x: torch.Tensor, dim, eps: float | None = None):
    """float64 torch result (layer_norm: native_layer_norm's (y, mean, rstd))."""
    xd = x.double()
    if op == "softmax":
        return torch.softmax(xd, dim)
    if op == "log_softmax":
        return torch.log_softmax(xd, dim)
    dims = tuple(d % x.ndim for d in ((dim,) if isinstance(dim, int) else dim))
    assert dims == tuple(range(x.ndim - len(dims), x.ndim)), "torch norms normalize trailing dims"
    w, b = params_for(x, dims)
    shape = [x.shape[d] for d in dims]
    if op == "rms_norm":
        return torch.nn.functional.rms_norm(xd, shape, w.double(), eps=1e-6 if eps is None else eps)
    return torch.ops.aten.native_layer_norm(xd, shape, w.double(), b.double(), 1e-5 if eps is None else eps)


def check(mods, op: str, x: torch.Tensor, dim, **kw):
    out = call(mods, op, x, dim, **kw)
    ref = reference(op, x, dim, kw.get("eps"))
    outs = out if isinstance(out, tuple) else (out,)
    refs = ref if isinstance(ref, tuple) else (ref,)
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs, strict=True):
        assert_accurate(o, r, x.dtype)
    y = outs[0]
    assert y.shape == x.shape and y.is_contiguous()
    assert y.dtype == (kw.get("dtype") or x.dtype)
    return out


# --- accuracy -------------------------------------------------------------------------------
SOFTMAX_CASES = [((5, 37), -1), ((5, 37), 0), ((3, 37, 4), 1), ((3, 37, 4), -2), ((2, 3, 4, 5), 2), ((50,), 0)]
NORM_CASES = [((5, 37), -1), ((3, 4, 37), -1), ((2, 3, 20), (-2, -1)), ((37,), 0)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape, dim", SOFTMAX_CASES, ids=[f"{s}-{d}" for s, d in SOFTMAX_CASES])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_accuracy(mods, op, shape, dim, dtype):
    check(mods, op, randn(*shape, dtype=dtype), dim)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape, dim", NORM_CASES, ids=[f"{s}-{d}" for s, d in NORM_CASES])
@pytest.mark.parametrize("op", ["rms_norm", "layer_norm"])
def test_norm_accuracy(mods, op, shape, dim, dtype):
    check(mods, op, randn(*shape, dtype=dtype), dim)


@pytest.mark.parametrize("op", OPS)
def test_accuracy_several_chunks(variant, op):
    check(variant, op, randn(2, N_CHUNKS), -1)


def test_softmax_several_chunks_cols_kernel(variant):
    """A dim after the reduced one: the cuda column kernel, the ascend row copy and write-back."""
    check(variant, "softmax", randn(2, N_CHUNKS, 3), 1)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_half_to_float(mods, op, dtype):
    """torch's _softmax(x, dim, half_to_float=True): dtype=torch.float32 on a half input."""
    x = randn(4, 300, dtype=dtype)
    out = check(mods, op, x, 1, dtype=torch.float32)
    assert out.dtype == torch.float32
    # As good as the f32 accumulator, not rounded to the half dtype.
    torch.testing.assert_close(out.double(), reference(op, x, 1), rtol=1e-5, atol=1e-6)


def test_eps(mods):
    x = randn(3, 40) * 1e-3
    check(mods, "rms_norm", x, -1, eps=1e-2)
    check(mods, "layer_norm", x, -1, eps=1e-1)
    out = call(mods, "rms_norm", x, -1, eps=torch.finfo(torch.float32).eps)  # torch's eps=None
    assert_accurate(out, reference("rms_norm", x, -1, torch.finfo(torch.float32).eps), x.dtype)


def test_layer_norm_statistics(mods):
    """mean and rstd: f32 whatever the input dtype, the normalized dims kept as size 1."""
    x = randn(2, 3, 4, 5, dtype=torch.bfloat16)
    y, mean, rstd = check(mods, "layer_norm", x, (-2, -1))
    assert mean.shape == rstd.shape == (2, 3, 1, 1)
    assert mean.dtype == rstd.dtype == torch.float32 and y.dtype == torch.bfloat16


# --- layouts ------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("make", [
    lambda: randn(37, 5).t(),                 # the reduce dim strided
    lambda: randn(5, 74)[:, ::2],             # every other element
    lambda: randn(4, 6, 37).permute(1, 0, 2),  # batch dims out of order
    lambda: randn(5, 37).expand(2, 5, 37),    # stride-0 batch dim
], ids=["transposed", "sliced", "permuted", "expanded"])
def test_non_contiguous(mods, op, make):
    x = make()
    assert not x.is_contiguous()
    check(mods, op, x, -1)


@pytest.mark.parametrize("dim", [(0, 2), (2, 0)])
def test_softmax_non_adjacent_dims(mods, dim):
    """Dims that no single stride merges: the output goes through a buffer, still contiguous."""
    x = randn(3, 4, 5)
    y = mods["softmax"].softmax(x, dim)
    ref = torch.softmax(x.double().permute(1, 0, 2).reshape(4, 15), 1).reshape(4, 3, 5).permute(1, 0, 2)
    assert y.is_contiguous()
    assert_accurate(y, ref, x.dtype)


def test_scalar_input(mods):
    x = torch.tensor(2.5)
    assert torch.equal(mods["softmax"].softmax(x, 0), torch.softmax(x, 0))
    assert torch.equal(mods["log_softmax"].log_softmax(x, 0), torch.log_softmax(x, 0))


# --- non-finite values and empty tensors ----------------------------------------------------------
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_non_finite(mods, op):
    x = randn(6, 40)
    x[0, :7] = float("-inf")   # some -inf entries: exactly 0 (softmax) / -inf (log_softmax) there
    x[1] = float("-inf")       # an all -inf row: nan, as torch
    x[2, 3] = float("inf")     # +inf: nan, as torch
    x[3, 5] = float("nan")     # nan propagates through max and sum
    x[4, 0] = 80.0             # a large value: the max shift keeps exp finite
    check(mods, op, x, -1)


def test_norm_non_finite(mods):
    x = randn(3, 40)
    x[0, 1] = float("inf")
    x[1, 2] = float("nan")
    check(mods, "rms_norm", x, -1)
    y, mean, rstd = call(mods, "layer_norm", x, -1)
    ry, rmean, rrstd = reference("layer_norm", x, -1)
    assert_accurate(y, ry, x.dtype)
    assert_accurate(rstd, rrstd, x.dtype)
    # The mean of a row holding +inf is NaN, as torch's (Welford's inf - inf); a NaN stays NaN.
    assert torch.isnan(mean[0, 0]) and torch.isnan(rmean[0, 0])
    assert_accurate(mean, rmean, x.dtype)


def test_layer_norm_mean_of_one_element_is_that_element(mods):
    """N = 1: the element is its own mean, an infinity too, as torch's CUDA native_layer_norm
    (measured on an H100: [inf, -inf, 2.5]; torch's CPU kernel gives NaN for the infinities)."""
    x = torch.tensor([[float("inf")], [float("-inf")], [2.5]])
    _, mean, _ = call(mods, "layer_norm", x, -1)
    assert torch.equal(mean.flatten(), x.flatten())


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape", [(0, 37), (2, 0, 37), (0,)], ids=str)
def test_empty_batch(mods, op, shape):
    x = randn(*shape)
    out = call(mods, op, x, -1)
    outs = out if isinstance(out, tuple) else (out,)
    assert outs[0].shape == x.shape
    if op == "layer_norm":
        assert outs[1].shape == outs[2].shape == (*shape[:-1], 1)


def test_softmax_empty_reduce_dim(mods):
    x = randn(3, 0)
    assert mods["softmax"].softmax(x, -1).shape == (3, 0)


# --- bitwise batch invariance ---------------------------------------------------------------------
BATCHES = (1, 2, 3, 7)


def _rows(out, sl):
    return tuple(o[sl] for o in (out if isinstance(out, tuple) else (out,)))


def _equal(a, b) -> bool:
    return all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("op", OPS)
def test_batch_invariance(variant, op):
    """A row alone and inside batches of 2, 3, 7 and 64: the same bits, several chunks."""
    x = randn(64, N_CHUNKS, seed=3)
    full = call(variant, op, x, -1)
    for b in BATCHES:
        assert _equal(_rows(call(variant, op, x[:b], -1), slice(None)), _rows(full, slice(0, b))), f"batch {b}"
    alone = call(variant, op, x[41:42].clone(), -1)
    assert _equal(_rows(alone, slice(None)), _rows(full, slice(41, 42))), "row 41 alone"


def test_batch_invariance_half_inputs(variant):
    x = randn(7, N_CHUNKS, dtype=torch.bfloat16, seed=4)
    full = call(variant, "layer_norm", x, -1)
    assert _equal(_rows(call(variant, "layer_norm", x[2:3], -1), slice(None)), _rows(full, slice(2, 3)))


def test_batch_invariance_cols_kernel(variant):
    x = randn(7, N_CHUNKS, 3, seed=5)
    full = call(variant, "softmax", x, 1)
    assert torch.equal(call(variant, "softmax", x[:2], 1), full[:2])
    assert torch.equal(call(variant, "softmax", x[6:], 1), full[6:])


@pytest.mark.parametrize("op", OPS)
def test_paths_and_targets_agree_bitwise(op, monkeypatch):
    """cuda fused, cuda split and every ascend grid: one order, so one result."""
    x = randn(3, N_CHUNKS, seed=6)
    results = []
    for (target, knobs), name in zip(VARIANTS, VARIANT_IDS, strict=True):
        mods = CUDA if target == "cuda" else ASCEND
        for knob, value in knobs.items():
            monkeypatch.setattr(mods[op], knob, value)
        results.append((name, call(mods, op, x, -1)))
    first_name, first = results[0]
    for name, out in results[1:]:
        assert _equal(_rows(out, slice(None)), _rows(first, slice(None))), f"{name} vs {first_name}"


@pytest.mark.parametrize("op", OPS)
def test_cuda_paths_taken(op, monkeypatch):
    """The variants reach the kernels they name: the row kernel where a row fits on chip (and
    for every batch size), the chunked walks with it off, the row kernel never past its bound."""
    mod = CUDA[op]
    shape, split = 2, 6  # fields of _schedule's result
    held = mod.ROW_MAX_TILES * mod.LANES  # the longest row held (softmax's combiner: 4096, else 32768)
    assert held == (4096 if op in ("softmax", "log_softmax") else 32768)
    assert mod._schedule(1, held, 1, 4)[shape] == mod._schedule(4096, held, 1, 4)[shape] == "row"
    assert mod._schedule(1, 300, 1, 4)[shape] == "row" and not mod._schedule(1, held, 1, 4)[split]
    assert mod._schedule(1, held + 1, 1, 4)[shape] == "rows"
    if op in ("softmax", "log_softmax"):  # specs with an axis after N: K > 1 is the column kernel's
        assert mod._schedule(1, 300, 3, 4)[shape] == "cols"
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    walk = mod._schedule(1, N_CHUNKS, 1, 4)
    assert walk[shape] == "rows" and walk[split]


@pytest.mark.parametrize("case", ["contiguous", "strided", "2d", "2d-transposed"])
def test_place3_is_the_broadcast_view(mods, case):
    """The launchers take a weight's [M, N, K] strides from its own (memoized) instead of
    building its broadcast view each call: the same pointer, sizes and strides as the view
    (the general path where the view needs a copy, as a transposed 2-d weight over two dims)."""
    mod = mods["layer_norm"]
    x = randn(3, 4, 6, seed=9)
    w = {"contiguous": randn(6), "strided": randn(12)[::2], "2d": randn(4, 6),
         "2d-transposed": randn(6, 4).t()}[case]
    dims = (2,) if w.ndim == 1 else (1, 2)
    groups = mod._cached_geometry("layer_norm", x, dims, True, True, False)[0]
    axis_dims = tuple(groups[1])  # a norm's weight spans the reduce dims
    fast = mod._place3("layer_norm", "w", w, x, axis_dims, 1.0, groups)
    slow = mod._view3(mod._place("layer_norm", "w", w, x, axis_dims, 1.0), groups)
    assert fast[1:] == slow[1:]
    assert mod._place3("layer_norm", "w", w, x, axis_dims, 1.0, groups)[1:] == slow[1:]  # the memo
    if case != "2d-transposed":  # the weight itself, at the view's pointer
        assert fast[0] is w and w.data_ptr() == slow[0].data_ptr()
    else:  # its dims merge into N with no single stride: both copy, the same values
        assert fast[0] is not w and torch.equal(fast[0], slow[0])
    with pytest.raises(ValueError, match="w has shape"):
        mod._place3("layer_norm", "w", randn(5), x, axis_dims[-1:], 1.0, groups)


def test_run_to_run(mods):
    x = randn(5, 300, seed=7)
    for op in OPS:
        assert _equal(_rows(call(mods, op, x, -1), slice(None)), _rows(call(mods, op, x, -1), slice(None)))


# --- launcher errors ----------------------------------------------------------------------------
def test_errors(mods):
    x = randn(3, 40)
    with pytest.raises(ValueError, match="out of range"):
        mods["softmax"].softmax(x, 2)
    with pytest.raises(ValueError, match="w has shape"):
        mods["rms_norm"].rms_norm(x, randn(39), -1)
    with pytest.raises(TypeError, match="dtype"):
        mods["softmax"].softmax(x.double(), -1)
    with pytest.raises(TypeError, match="dtype="):
        mods["log_softmax"].log_softmax(x, -1, dtype=torch.int32)


# --- torch integration --------------------------------------------------------------------------
def test_certificate_covers_the_reductions():
    for target, mods in (("cuda", CUDA), ("ascend", ASCEND)):
        for op, mod in mods.items():
            cert = mod.CERTIFICATE
            assert cert["target"] == target and cert["empirical"]["status"] == "passed", op
            assert cert["depends_on"] == ["N"] and "M" in cert["independent_of"]
            assert cert["order"]["combiners"] == {"softmax": ["softmax_stats"], "log_softmax": ["softmax_stats"],
                                                  "rms_norm": ["sum"], "layer_norm": ["sum", "sum"]}[op]
            assert any("outputs over the reduce axis" in note for note in cert["not_order_shaping"]), op


def test_custom_ops_and_batch_invariant_mode():
    import redgen
    from redgen.runtime import custom_ops as torch_ops

    torch_ops.register()
    x, w, b = randn(4, 32), randn(32, seed=1), randn(32, seed=2)
    y, mean, rstd = torch.ops.redgen.layer_norm(x, w, b, [-1])
    assert _equal((y, mean, rstd), c_layer_norm.layer_norm(x, w, b, -1))
    assert torch.equal(torch.ops.redgen.softmax(x, 1), c_softmax.softmax(x, 1))
    with redgen.batch_invariant():
        ln = torch.ops.aten.native_layer_norm(x, [32], w, b, 1e-5)
        sm = torch.softmax(x, -1)
        ls = torch.log_softmax(x.half(), -1, dtype=torch.float32)
    assert _equal(ln, (y, mean, rstd))
    assert torch.equal(sm, c_softmax.softmax(x, -1))
    assert torch.equal(ls, c_log_softmax.log_softmax(x.half(), -1, dtype=torch.float32))
