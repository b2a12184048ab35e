"""Batch-invariant mode: route aten reductions to redgen's generated kernels.

    with redgen.batch_invariant():          # or redgen.enable() ... redgen.disable()
        logits = model(tokens)              # torch.mean, softmax, layer_norm, ... -> redgen

How: an `aten` IMPL library (`torch.library.Library("aten", "IMPL")`) replaces the
kernel of each covered overload at the dispatch key of the device (CUDA; CPU too
when TRITON_INTERPRET=1, so CI can exercise it; PrivateUse1 for the ascend target
on NPUs). The key is below Autograd, so autograd keeps using torch's derivative
formulas. Before overriding, the original kernel is fetched with
`torch.library.get_kernel`; a call the kernels do not cover (float64 input, an
integer dtype=, an argument torch rejects, ...) runs that original kernel through
`call_boxed`, so a fallback never re-enters the override.

Semantics:
- The routing is process-global, because aten dispatch is: while any
  `enable()` is outstanding, every thread's aten calls are routed. `enable()` and
  `disable()` keep a reference count under a lock; the last `disable()` removes
  the overrides. Contexts nest, and an inner exit never disables an outer one.
- Strictness is per thread (aten calls run in the calling thread): inside
  `batch_invariant(strict=True)`, or after `enable(strict=True)` in this thread,
  an uncovered call raises `redgen.errors.NotCovered` instead of falling back.
- Fallbacks warn once per (aten op, reason) per process (BatchInvarianceWarning).
- Only ops whose generated module exists are routed (`routes()` lists them,
  `skipped()` says why the others are not).
- torch.compile: backends that run aten ops (eager, aot_eager) are routed; inductor
  compiles reductions itself and is not (use `torch.ops.redgen.*` there, see
  redgen/torch_ops.py). Contractions (mm, addmm, bmm, .out): redgen/mode_matmul.py.
"""

from __future__ import annotations

import contextlib
import os
import threading
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

from . import targets
from .errors import NotCovered, UnknownKernel
from .loader import load

__all__ = [
    "BatchInvarianceWarning",
    "batch_invariant",
    "call_counts",
    "disable",
    "enable",
    "is_enabled",
    "routes",
    "skipped",
]

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


class BatchInvarianceWarning(UserWarning):
    """An aten call ran torch's own kernel because redgen's kernels do not cover it."""


class _Fallback(Exception):  # noqa: N818 -- internal signal, not an error
    """Raised by an adapter: this call is not covered; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


# --- adapters: aten arguments -> a generated launcher call ---------------------------
# Each adapter takes the generated functions it needs (by redgen op name) and the
# call's arguments by schema name, and returns what the aten overload returns, or
# raises _Fallback. They check everything the kernels do not cover *before*
# launching, so a fallback costs nothing.

Fns = dict[str, Callable[..., Any]]
Args = dict[str, Any]


def _float_input(x: torch.Tensor, name: str = "input") -> None:
    if not isinstance(x, torch.Tensor) or x.dtype not in _FLOATS:
        raise _Fallback(f"{getattr(x, 'dtype', type(x).__name__)} {name}")


def _float_dtype(dtype: torch.dtype | None) -> None:
    if dtype is not None and dtype not in _FLOATS:
        raise _Fallback(f"dtype={dtype}")


def _dims(dim: Any) -> tuple[int, ...] | None:
    return None if dim is None else tuple(int(d) for d in dim)


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
        y, mean, rstd = res
        # torch's statistics where the spec's formula (s / N) differs: an empty row's
        # mean is 0 (not 0/0), a row holding an infinity has a nan mean (Welford's
        # inf - inf), as native_layer_norm returns them.
        if x.numel() == 0:
            mean = torch.zeros_like(mean)
        elif x.numel() > mean.numel():  # more than one element per row (one inf is its own mean)
            mean = torch.where(torch.isinf(mean), torch.full_like(mean, float("nan")), mean)
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
    y = fns["rms_norm"](x, w, dim=dims, eps=eps)
    rstd = torch.rsqrt(fns["mean"](x.float().square(), dims, True) + eps)
    return y, rstd.to(torch.promote_types(x.dtype, torch.float32))


def _into_out(functional: Callable[[Fns, Args], Any], outs: tuple[str, ...] = ("out",),
              dtype_from_out: bool = False) -> Callable[[Fns, Args], Any]:
    """The `.out` overload of `functional`: compute, then copy into the out tensors."""

    def call(fns: Fns, a: Args) -> Any:
        if dtype_from_out and a.get("dtype") is None:
            # torch computes mean/sum(..., out=o) in o's dtype when dtype= is not given.
            a = {**a, "dtype": a["out"].dtype}
        for name in outs:
            if not isinstance(a[name], torch.Tensor):
                raise _Fallback(f"{name} is not a tensor")
        res = functional(fns, a)
        results = res if isinstance(res, tuple) else (res,)
        for name, r in zip(outs, results, strict=False):
            if a[name].dtype != r.dtype:
                raise _Fallback(f"{name} dtype differs from the result dtype")
        for name, r in zip(outs, results, strict=False):
            o = a[name]
            if o.shape != r.shape:
                o.resize_(r.shape)
            o.copy_(r)
        got = tuple(a[name] for name in outs)
        return got if isinstance(res, tuple) else got[0]

    return call


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


@dataclass(frozen=True)
class Route:
    """One aten overload and how it maps onto generated ops."""

    aten: str                         # overload name under torch.ops.aten, e.g. "mean.dim"
    ops: tuple[str, ...]              # generated ops it needs (all must exist)
    call: Callable[[Fns, Args], Any]  # the adapter
    params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # keywords each op must accept
    optional: tuple[str, ...] = ()    # generated ops the adapter uses when they exist


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
    Route("_fused_rms_norm.default", ("rms_norm", "mean"), _rms_norm, _RMS),
    # --- language extensions (issue 14) ---
    Route("nansum.default", ("nansum",), _reduce("nansum", with_dtype=True)),
    Route("linalg_vector_norm.default", ("vector_norm",), _vector_norm, {"vector_norm": ("ord",)}),
    # cross_entropy (composite) is log_softmax (routed above) then nll_loss_nd -> these two.
    Route("nll_loss_forward.default", ("nll_loss", "sum"), _nll_loss, {"nll_loss": ("ignore_index",)}),
    Route("nll_loss2d_forward.default", ("nll_loss", "sum"), _nll_loss, {"nll_loss": ("ignore_index",)}),
)

# --- attention: the aten ops F.scaled_dot_product_attention dispatches to (redgen/mode_attention.py) ---
from .mode_attention import ROUTES as _ATTENTION_ROUTES  # noqa: E402 - needs Route, defined above

ROUTES = ROUTES + _ATTENTION_ROUTES

# Contractions (mm, addmm, bmm and their .out): adapters in redgen/mode_matmul.py, which
# imports Route and the helpers above (hence the import here, after them).
from .mode_matmul import MATMUL_ROUTES  # noqa: E402

ROUTES = ROUTES + MATMUL_ROUTES


# --- state ----------------------------------------------------------------------------


@dataclass
class _State:
    count: int = 0                                         # outstanding enable() calls
    lib: Any = None                                        # the aten IMPL library while enabled
    target: str | None = None
    routes: list[tuple[str, str, str]] = field(default_factory=list)  # (aten, key, "target:op")
    skipped: dict[str, str] = field(default_factory=dict)  # aten -> why it is not routed
    warned: set[tuple[str, str]] = field(default_factory=set)
    calls: Counter = field(default_factory=Counter)        # aten -> routed calls (tests, demo)


_LOCK = threading.RLock()
_STATE = _State()
_TLS = threading.local()  # .in_fallback: inside torch's own kernel for a fallback
# Each thread's stack of strict flags (one per outstanding enable() in that thread).
# A dict rather than thread-locals so the last disable() can clear every thread's,
# even when a thread's enable() was matched by a disable() in another thread.
_STRICT: dict[int, list[bool]] = {}


def _strict_stack() -> list[bool]:
    return _STRICT.setdefault(threading.get_ident(), [])


def _strict() -> bool:
    return any(_STRICT.get(threading.get_ident(), ()))


def _interpret() -> bool:
    return os.environ.get("TRITON_INTERPRET") == "1"


def _device_keys(target: str | None) -> list[tuple[str, str]]:
    """(dispatch key, target) pairs to override on this machine."""
    keys: list[tuple[str, str]] = []
    for t in targets.TARGETS.values():
        dev = getattr(torch, t.device_type, None)  # torch.npu exists once torch_npu is imported
        if dev is not None and getattr(dev, "is_available", lambda: False)():
            keys.append((t.dispatch_key, target or t.name))
    if _interpret():
        # The interpreter runs the kernels on CPU tensors: CI can test the routing.
        keys.append(("CPU", target or targets.for_device("cpu").name))
    return keys


_SCHEMAS: dict[Any, tuple[tuple[str, Any], ...]] = {}


def _schema_args(op: Any, args: tuple, kwargs: dict) -> Args:
    """The call's arguments by schema name, defaults filled in."""
    schema = _SCHEMAS.get(op)
    if schema is None:
        # Read once per op: `op._schema.arguments` builds its Argument objects anew on each
        # access (~15 us of every routed call, more than the kernel's launch).
        schema = tuple((arg.name, arg.default_value if arg.has_default_value() else None)
                       for arg in op._schema.arguments)
        _SCHEMAS[op] = schema
    a: Args = dict(zip((name for name, _ in schema), args, strict=False))
    a.update(kwargs)
    for name, default in schema:
        if name not in a:
            a[name] = default
    return a


def _on_fallback(aten: str, reason: str) -> None:
    if _strict():
        raise NotCovered(f"batch-invariant mode (strict): aten.{aten} is not covered by redgen's kernels "
                         f"({reason}); torch's own kernel would run and may not be batch invariant")
    key = (aten, reason)
    with _LOCK:
        if key in _STATE.warned:
            return
        _STATE.warned.add(key)
    warnings.warn(f"redgen batch-invariant mode: aten.{aten} falls back to torch's own kernel ({reason}); "
                  f"this call is not guaranteed to be batch invariant", BatchInvarianceWarning, stacklevel=3)


def _make_kernel(route: Route, op: Any, fns: Fns, original: Any) -> Callable[..., Any]:
    def kernel(keyset: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_TLS, "in_fallback", False):
            # Called from inside torch's own kernel (CPU mean calls sum.out, say):
            # let torch finish its way, silently.
            return original.call_boxed(keyset, *args, **kwargs)
        try:
            # Below the Autograd key: torch's derivative formulas build the graph above this
            # kernel, which computes values only (the launchers refuse inputs that need grad).
            # (grad mode set directly: a torch.no_grad() context costs a few us per call)
            grad = torch.is_grad_enabled()
            torch._C._set_grad_enabled(False)
            try:
                out = route.call(fns, _schema_args(op, args, kwargs))
            finally:
                torch._C._set_grad_enabled(grad)
        except _Fallback as fb:
            _on_fallback(route.aten, fb.reason)
            # The kernel captured before overriding: never re-enters this override.
            _TLS.in_fallback = True
            try:
                return original.call_boxed(keyset, *args, **kwargs)
            finally:
                _TLS.in_fallback = False
        with _LOCK:
            _STATE.calls[route.aten] += 1
        return out

    return kernel


def _accepts(fn: Callable[..., Any], names: tuple[str, ...]) -> bool:
    import inspect

    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return True
    return all(n in params for n in names)


def _install(target: str | None) -> None:
    """Register the overrides (called with _LOCK held, when count goes 0 -> 1)."""
    if not hasattr(torch.library, "get_kernel"):
        raise RuntimeError(f"redgen batch-invariant mode needs torch.library.get_kernel (torch >= 2.9) to "
                           f"fall back to torch's own kernels; this is torch {torch.__version__}")
    _STATE.routes, _STATE.skipped, _STATE.target = [], {}, target
    keys = _device_keys(target)
    if not keys:
        msg = ("no device to route: no CUDA/NPU device, and TRITON_INTERPRET is not 1 "
               "(set it before importing triton to run the kernels on CPU)")
        if _strict():
            raise NotCovered(f"batch-invariant mode (strict): {msg}")
        warnings.warn(f"redgen batch-invariant mode: {msg}; nothing is routed", BatchInvarianceWarning,
                      stacklevel=4)
        return
    lib = torch.library.Library("aten", "IMPL")
    try:
        for key, tgt in keys:
            for route in ROUTES:
                packet, _, overload = route.aten.partition(".")
                opname = f"aten::{packet}" + ("" if overload == "default" else f".{overload}")
                op = getattr(getattr(torch.ops.aten, packet, None), overload, None)
                if op is None:
                    _STATE.skipped[route.aten] = f"torch {torch.__version__} has no aten.{route.aten}"
                    continue
                if not _has_own_kernel(opname, key):
                    _STATE.skipped.setdefault(route.aten, f"no {key} kernel of its own (it decomposes)")
                    continue
                try:
                    fns = {name: load(name, tgt) for name in route.ops}
                except UnknownKernel:
                    missing = [n for n in route.ops if not _exists(n, tgt)]
                    _STATE.skipped[route.aten] = f"not generated for {tgt}: {', '.join(missing)}"
                    continue
                fns.update({name: load(name, tgt) for name in route.optional if _exists(name, tgt)})
                bad = [n for n, names in route.params.items() if not _accepts(fns[n], names)]
                if bad:
                    _STATE.skipped[route.aten] = (f"generated {', '.join(bad)} lacks keyword(s) "
                                                  f"{', '.join(k for n in bad for k in route.params[n])}")
                    continue
                original = torch.library.get_kernel(op, key)
                with warnings.catch_warnings():
                    # Overriding is the point; torch warns about it once per process.
                    warnings.filterwarnings("ignore", message="(?s).*previously registered kernel")
                    lib.impl(opname.removeprefix("aten::"), _make_kernel(route, op, fns, original), key,
                             with_keyset=True)
                _STATE.routes.append((route.aten, key, f"{tgt}:{route.ops[0]}"))
                _STATE.skipped.pop(route.aten, None)
    except BaseException:
        lib._destroy()
        raise
    _STATE.lib = lib


def _has_own_kernel(opname: str, key: str) -> bool:
    """Whether dispatch for `key` tensors reaches a kernel of this op at `key`, which we can replace.

    A composite op (CompositeImplicitAutograd) decomposes into routed ones before any
    backend key, unless it also has a backend kernel *and* an autograd formula of its own
    (`_fused_rms_norm` on CUDA builds): then autograd stays torch's and the backend kernel
    is what runs. Overriding a composite op that decomposes would cut it off from autograd.
    """
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    if not torch._C._dispatch_has_computed_kernel_for_dispatch_key(opname, key):
        return False
    if not has(opname, "CompositeImplicitAutograd"):
        return True
    return has(opname, key) and has(opname, "Autograd")


def _exists(op: str, target: str) -> bool:
    from .loader import available

    return op in available().get(target, ())


def _uninstall() -> None:
    if _STATE.lib is not None:
        _STATE.lib._destroy()
    _STATE.lib = None
    _STATE.routes = []


# --- public API -----------------------------------------------------------------------


def enable(*, strict: bool = False, target: str | None = None) -> None:
    """Route covered aten ops to redgen's generated kernels (process-global).

    Reference counted: every `enable()` needs one `disable()`; the overrides stay
    installed until the last one. `strict=True` makes uncovered calls raise
    NotCovered in this thread (until the matching `disable()` in this thread).
    `target` picks the generated modules (default: "cuda" for CUDA and for CPU under
    TRITON_INTERPRET=1, "ascend" for NPUs); nested enables must agree on it.
    """
    with _LOCK:
        if _STATE.count > 0 and target is not None and target != _STATE.target:
            raise ValueError(f"batch-invariant mode is already enabled for target {_STATE.target!r}; "
                             f"cannot nest target {target!r}")
        _strict_stack().append(bool(strict))
        try:
            if _STATE.count == 0:
                _install(target)
        except BaseException:
            _strict_stack().pop()
            raise
        _STATE.count += 1


def disable() -> None:
    """Undo one `enable()`; the last one removes the overrides.

    Raises RuntimeError when nothing is enabled (an unmatched disable is a bug
    that would otherwise switch off someone else's mode).
    """
    with _LOCK:
        if _STATE.count == 0:
            raise RuntimeError("redgen.disable() called without a matching redgen.enable()")
        stack = _STRICT.get(threading.get_ident())
        if stack:
            stack.pop()
        _STATE.count -= 1
        if _STATE.count == 0:
            _STRICT.clear()
            _uninstall()


def is_enabled() -> bool:
    """True while at least one `enable()` is outstanding."""
    return _STATE.count > 0


@contextlib.contextmanager
def batch_invariant(*, strict: bool = False, target: str | None = None) -> Iterator[None]:
    """Context manager form of `enable()`/`disable()`: nestable and exception safe.

        with redgen.batch_invariant():
            y = torch.mean(x, dim=1)        # runs redgen's mean kernel
    """
    enable(strict=strict, target=target)
    try:
        yield
    finally:
        disable()


def routes() -> list[tuple[str, str, str]]:
    """(aten overload, dispatch key, "target:op") for every override installed now."""
    with _LOCK:
        return list(_STATE.routes)


def skipped() -> dict[str, str]:
    """aten overloads of the table not routed at the last enable, and why."""
    with _LOCK:
        return dict(_STATE.skipped)


def call_counts() -> Counter:
    """How many calls each aten overload sent to redgen's kernels (process lifetime)."""
    with _LOCK:
        return Counter(_STATE.calls)
