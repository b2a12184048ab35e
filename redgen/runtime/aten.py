"""The aten adapters of the reductions and norms, and the table of every routed overload
(contractions' and attention's adapters live in matmul_routes and attention_routes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from redgen.runtime.attention_routes import ROUTES as _ATTENTION_ROUTES
from redgen.runtime.matmul_routes import MATMUL_ROUTES
from redgen.runtime.route import Args, Fns, Route, _dims, _Fallback, _float_dtype, _float_input, _into_out


def _two_axes(fns: Fns, op: str, x: torch.Tensor, dims: tuple[int, ...] | None):
    """A call of `op` over two non-adjacent dims that `<op>_2axes` (a spec `reduce N1, N2 as N`
    over x[A, N1, B, N2]) computes: its kernels walk both dims in place, where `op`'s launcher
    copies them together. Same merged position n1*N2 + n2, so the same order. Only for the 4-d
    dims (1, 3) and the 3-d (0, 2) (A = 1), chosen from the shape and dims: never the batch."""
    fn = fns.get(f"{op}_2axes")
    if fn is None or dims is None or len(dims) != 2:
        return None
    d = tuple(sorted(k % x.ndim for k in dims)) if x.ndim else ()
    if x.ndim == 4 and d == (1, 3):
        return lambda keepdim, dtype: fn(x, keepdim, dtype=dtype)
    if x.ndim == 3 and d == (0, 2):
        return lambda keepdim, dtype: fn(x.unsqueeze(0), keepdim, dtype=dtype).squeeze(0)
    return None


def _reduce(op: str, *, with_dtype: bool, empty_dim_ok: bool = True) -> Callable[[Fns, Args], Any]:
    """mean/sum (with dtype=) and amax/amin/logsumexp: (self, dim, keepdim)."""

    def call(fns: Fns, a: Args) -> Any:
        x = a["self"]
        _float_input(x)
        dims = _dims(a["dim"])
        if not empty_dim_ok and not dims:
            raise _Fallback("empty dim list")
        if with_dtype:
            _float_dtype(a["dtype"])
            two = _two_axes(fns, op, x, dims)
            if two is not None:
                return two(bool(a["keepdim"]), a["dtype"])
            return fns[op](x, dims, bool(a["keepdim"]), dtype=a["dtype"])
        return fns[op](x, dims, bool(a["keepdim"]))

    return call


def _var(op: str) -> Callable[[Fns, Args], Any]:
    """var/std.correction: (self, dim, *, correction, keepdim); correction None is 1 (Bessel)."""

    def call(fns: Fns, a: Args) -> Any:
        x = a["self"]
        _float_input(x)
        c = a["correction"]
        if c is None:
            c = 1
        if isinstance(c, bool) or not isinstance(c, (int, float)):
            raise _Fallback(f"correction={c!r}")
        return fns[op](x, _dims(a["dim"]), bool(a["keepdim"]), correction=float(c))

    return call


def _arg(op: str) -> Callable[[Fns, Args], Any]:
    """argmax/argmin: (self, dim, keepdim); int64 indices, the first on ties (torch's rule)."""

    def call(fns: Fns, a: Args) -> Any:
        x = a["self"]
        _float_input(x)
        if a["dim"] is None and a["keepdim"]:
            raise _Fallback("dim=None with keepdim=True")
        return fns[op](x, a["dim"], bool(a["keepdim"]))

    return call


def _softmax(op: str) -> Callable[[Fns, Args], Any]:
    """_softmax / _log_softmax: (self, dim, half_to_float)."""

    def call(fns: Fns, a: Args) -> Any:
        x = a["self"]
        _float_input(x)
        dtype = torch.float32 if a["half_to_float"] else None
        return fns[op](x, int(a["dim"]), dtype=dtype)

    return call


def _norm_dims(x: torch.Tensor, shape: Any) -> tuple[int, ...]:
    shape = tuple(int(s) for s in shape)
    k = len(shape)
    if k == 0 or k > x.ndim or tuple(x.shape[x.ndim - k :]) != shape:
        raise _Fallback("normalized_shape that torch rejects or an empty one")
    return tuple(range(x.ndim - k, x.ndim))


def _affine(t: torch.Tensor | None, x: torch.Tensor, shape: Any, fill: float, name: str) -> torch.Tensor:
    # The generated norms take tensors; a missing weight/bias is exactly 1/0.
    if t is None:
        return torch.full(tuple(int(s) for s in shape), fill, dtype=x.dtype, device=x.device)
    _float_input(t, name)
    return t


def _stats_dtype(x: torch.Tensor) -> torch.dtype:
    # Saved statistics (for backward) in the dtype each device's own kernel uses:
    # CPU keeps the input dtype, CUDA (and the meta kernels) use float32 for halves.
    return x.dtype if x.device.type == "cpu" else torch.promote_types(x.dtype, torch.float32)


def _layer_norm(fns: Fns, a: Args) -> Any:
    """native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd)."""
    x = a["input"]
    _float_input(x)
    dims = _norm_dims(x, a["normalized_shape"])
    w = _affine(a["weight"], x, a["normalized_shape"], 1.0, "weight")
    b = _affine(a["bias"], x, a["normalized_shape"], 0.0, "bias")
    eps = float(a["eps"])
    res = fns["layer_norm"](x, w, b, dim=dims, eps=eps)
    if isinstance(res, tuple):
        # The generated layer_norm returns (y, mean, rstd): f32 statistics from its own
        # reductions, the normalized dims kept as size 1, as native_layer_norm's.
        # (specs/layer_norm.red gives a row holding an infinity a NaN mean, as Welford's
        # inf - inf does in native_layer_norm: no fix-up kernel per call here.)
        y, mean, rstd = res
        if x.numel() == 0:  # torch's mean of an empty row is 0, not 0/0 (no kernel ran)
            mean = torch.zeros_like(mean)
    else:
        # A layer_norm returning y alone: mean/rstd (only read by backward) computed with
        # redgen's mean so they are batch invariant too.
        y = res
        mean = fns["mean"](x, dims, True, dtype=torch.float32)
        var = fns["mean"]((x.float() - mean).square(), dims, True)
        rstd = torch.rsqrt(var + eps)
    sd = _stats_dtype(x)
    return y, mean.to(sd), rstd.to(sd)


def _rms_norm(fns: Fns, a: Args) -> Any:
    """_fused_rms_norm(input, normalized_shape, weight, eps) -> (out, rstd)."""
    x = a["input"]
    _float_input(x)
    dims = _norm_dims(x, a["normalized_shape"])
    w = _affine(a["weight"], x, a["normalized_shape"], 1.0, "weight")
    eps = torch.finfo(x.dtype).eps if a["eps"] is None else float(a["eps"])
    if "rms_norm_rstd" in fns:  # one launch: y and the rstd that scaled it (f32, dims kept)
        return fns["rms_norm_rstd"](x, w, dim=dims, eps=eps)
    # Without that op: rstd from redgen's mean of the squares, for backward alone.
    y = fns["rms_norm"](x, w, dim=dims, eps=eps)
    rstd = torch.rsqrt(fns["mean"](x.float().square(), dims, True) + eps)
    return y, rstd.to(torch.promote_types(x.dtype, torch.float32))


# --- adapters for the language extensions (issue 14): nansum, vector norms, nll_loss ------
def _vector_norm(fns: Fns, a: Args) -> Any:
    """linalg_vector_norm(self, ord, dim, keepdim, dtype): a finite ord > 0."""
    x = a["self"]
    _float_input(x)
    _float_dtype(a["dtype"])
    ord_ = a["ord"]
    if isinstance(ord_, bool) or not isinstance(ord_, (int, float)) or not 0 < float(ord_) < float("inf"):
        raise _Fallback(f"ord={ord_!r} (only a finite ord > 0 is generated)")
    if a["dtype"] is not None and a["dtype"] != x.dtype:
        x = x.to(a["dtype"])  # torch computes the norm in dtype
    return fns["vector_norm"](x, _dims(a["dim"]), bool(a["keepdim"]), ord=float(ord_))


def _nll_loss(fns: Fns, a: Args) -> Any:
    """nll_loss_forward / nll_loss2d_forward(self, target, weight, reduction, ignore_index)
    -> (output, total_weight), without class weights.

    reduction 'none' is nll_loss.red per row. 'sum' and 'mean' reduce the rows with redgen's
    sum over the flattened rows: a fixed order for a given number of rows (fixed-size chunks
    at absolute offsets), so the same batch gives the same bits run to run; a loss summed
    over a batch depends on that batch by definition. total_weight (the rows not ignored)
    is a count, exact in float32.
    """
    x, t = a["self"], a["target"]
    _float_input(x)
    if a["weight"] is not None:
        raise _Fallback("class weights")
    if not isinstance(t, torch.Tensor) or t.dtype != torch.int64:
        raise _Fallback(f"target dtype {getattr(t, 'dtype', type(t).__name__)}")
    reduction, ignore = int(a["reduction"]), int(a["ignore_index"])
    if reduction not in (0, 1, 2):
        raise _Fallback(f"reduction={reduction}")
    one = x.ndim == 1  # [C] with a 0-d target: one row
    loss = fns["nll_loss"](x.unsqueeze(0) if one else x, t.reshape(1) if one else t, dim=1,
                           ignore_index=float(ignore))
    loss = loss.reshape(()) if one else loss
    if reduction == 0:
        return loss, torch.zeros((), dtype=x.dtype, device=x.device)
    total = fns["sum"]((t != ignore).to(torch.float32).reshape(-1), (0,), False)
    summed = fns["sum"](loss.reshape(-1), (0,), False, dtype=torch.float32)
    out = summed if reduction == 2 else summed / total
    return out.to(x.dtype), total.to(x.dtype)


_LN = {"layer_norm": ("dim", "eps")}


_RMS = {"rms_norm": ("dim", "eps")}


# The aten overloads batch-invariant mode can take over. Entries whose generated
# modules do not exist yet are skipped at enable() time (see skipped()).
ROUTES: tuple[Route, ...] = (
    Route("mean.dim", ("mean",), _reduce("mean", with_dtype=True), optional=("mean_2axes",)),
    Route("mean.out", ("mean",), _into_out(_reduce("mean", with_dtype=True), dtype_from_out=True)),
    Route("sum.dim_IntList", ("sum",), _reduce("sum", with_dtype=True)),
    Route("sum.IntList_out", ("sum",), _into_out(_reduce("sum", with_dtype=True), dtype_from_out=True)),
    Route("amax.default", ("amax",), _reduce("amax", with_dtype=False)),
    Route("amax.out", ("amax",), _into_out(_reduce("amax", with_dtype=False))),
    Route("amin.default", ("amin",), _reduce("amin", with_dtype=False)),
    Route("amin.out", ("amin",), _into_out(_reduce("amin", with_dtype=False))),
    Route("logsumexp.default", ("logsumexp",), _reduce("logsumexp", with_dtype=False, empty_dim_ok=False)),
    Route("logsumexp.out", ("logsumexp",),
          _into_out(_reduce("logsumexp", with_dtype=False, empty_dim_ok=False))),
    Route("_softmax.default", ("softmax",), _softmax("softmax"), {"softmax": ("dtype",)}),
    Route("_softmax.out", ("softmax",), _into_out(_softmax("softmax")), {"softmax": ("dtype",)}),
    Route("_log_softmax.default", ("log_softmax",), _softmax("log_softmax"), {"log_softmax": ("dtype",)}),
    Route("_log_softmax.out", ("log_softmax",), _into_out(_softmax("log_softmax")),
          {"log_softmax": ("dtype",)}),
    Route("native_layer_norm.default", ("layer_norm", "mean"), _layer_norm, _LN),
    Route("native_layer_norm.out", ("layer_norm", "mean"),
          _into_out(_layer_norm, outs=("out0", "out1", "out2")), _LN),
    Route("var.correction", ("var",), _var("var"), {"var": ("correction",)}),
    Route("var.correction_out", ("var",), _into_out(_var("var")), {"var": ("correction",)}),
    Route("std.correction", ("std",), _var("std"), {"std": ("correction",)}),
    Route("std.correction_out", ("std",), _into_out(_var("std")), {"std": ("correction",)}),
    Route("argmax.default", ("argmax",), _arg("argmax")),
    Route("argmax.out", ("argmax",), _into_out(_arg("argmax"))),
    Route("argmin.default", ("argmin",), _arg("argmin")),
    Route("argmin.out", ("argmin",), _into_out(_arg("argmin"))),
    # A real kernel only on CUDA builds (on CPU rms_norm decomposes into mean.dim,
    # which is routed); older torch versions have no such op: skipped.
    Route("_fused_rms_norm.default", ("rms_norm", "mean"), _rms_norm, _RMS, optional=("rms_norm_rstd",)),
    # --- language extensions (issue 14) ---
    Route("nansum.default", ("nansum",), _reduce("nansum", with_dtype=True)),
    Route("linalg_vector_norm.default", ("vector_norm",), _vector_norm, {"vector_norm": ("ord",)}),
    # cross_entropy (composite) is log_softmax (routed above) then nll_loss_nd -> these two.
    Route("nll_loss_forward.default", ("nll_loss", "sum"), _nll_loss, {"nll_loss": ("ignore_index",)}),
    Route("nll_loss2d_forward.default", ("nll_loss", "sum"), _nll_loss, {"nll_loss": ("ignore_index",)}),
)

# Attention (the aten ops F.scaled_dot_product_attention dispatches to) and the contractions
# (mm, addmm, bmm and their .out): adapters in attention_routes and matmul_routes.
ROUTES = ROUTES + _ATTENTION_ROUTES + MATMUL_ROUTES
