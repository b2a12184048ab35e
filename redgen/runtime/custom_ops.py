"""Generated ops as torch custom ops: `torch.ops.redgen.<op>` (e.g. `redgen::mean`).

    import redgen.runtime.custom_ops                  # registers every generated op (idempotent)
    y = torch.ops.redgen.mean(x, [1])        # same bits as generated/cuda/mean.py's mean(x, 1)

Registering through `torch.library.custom_op` with a fake (meta) implementation
lets torch.compile trace through a call without running the kernel: the fake
computes the output's shape and dtype only, and the compiled graph calls the op
as an opaque kernel, so a compiled function gives the same bits as eager.

The registration lives here, not in the generated modules: a generated module
stays a plain torch+triton file without import side effects (it can be copied
into another project alone), and this module wraps whatever ops exist.

The schema of each op is read from its launcher's signature (the launcher
conventions: `op(x, [w, b,] dim=None, keepdim=False, *, params..., dtype=None)`),
so ops generated later are picked up without editing this file. The output shape
follows the op's kind: a reduction removes (or keeps as 1, with keepdim) the
reduced dims; the ops in SAME_SHAPE (softmax, norms) keep the input shape; the ops
in INDEX return int64 indices. An op with outputs over the reduce axis (softmax,
the norms: `op(x, [w, b,] dim=-1, *, params..., dtype=None)`) lists what it returns
in its module's OUTPUTS; one with several outputs (layer_norm: y, mean, rstd) gets a
tuple schema. The shipped ops get torch's gradients (TORCH_REFS: the backward is the
gradient of torch's own op at the same inputs, recomputed in backward; the forward bits
stay redgen's); an op without an entry there raises when a backward reaches it, so a
gradient is never dropped silently.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

import torch

from redgen import targets
from redgen.runtime.loader import available, load

__all__ = ["INDEX", "SAME_SHAPE", "register", "registered", "schema_of"]

# Ops whose output has the input's shape (normalizations over `dim`).
SAME_SHAPE = frozenset({"softmax", "log_softmax", "rms_norm", "layer_norm"})
# Ops whose output is int64 indices into the reduced dims.
INDEX = frozenset({"argmax", "argmin"})


_LOCK = threading.Lock()
_REGISTERED: dict[str, Any] = {}


def schema_of(fn: Callable[..., Any]) -> str:
    """The torch schema of a generated launcher, from its signature."""
    parts: list[str] = []
    star = False
    for i, p in enumerate(inspect.signature(fn).parameters.values()):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise ValueError(f"{fn.__name__}: *args/**kwargs cannot be expressed in a torch schema")
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        d = p.default
        if i == 0:
            parts.append(f"Tensor {p.name}")
        elif p.name == "dim":
            # int[1] also accepts a plain int, as torch's own reductions do.
            parts.append("int[1]? dim=None" if d is None or d is p.empty else f"int[1] dim=[{int(d)}]")
        elif p.name == "dtype":
            parts.append("ScalarType? dtype=None")
        elif d is p.empty:
            parts.append(f"Tensor? {p.name}")  # w, b: secondary tensor inputs
        elif d is None:
            parts.append(f"Tensor? {p.name}=None")
        elif isinstance(d, bool):
            parts.append(f"bool {p.name}={d}")
        elif isinstance(d, int):
            parts.append(f"int {p.name}={d}")
        elif isinstance(d, float):
            parts.append(f"float {p.name}={d!r}")
        else:
            raise ValueError(f"{fn.__name__}: parameter {p.name}={d!r} has no torch schema type")
    outs = _outputs(fn)
    ret = "Tensor" if outs is None or len(outs) == 1 else f"({', '.join('Tensor' for _ in outs)})"
    return f"({', '.join(parts)}) -> {ret}"


def _outputs(fn: Callable[..., Any]) -> dict[str, tuple[str, Any]] | None:
    """The launcher module's OUTPUTS (ops with outputs over the reduce axis), or None."""
    return getattr(fn, "__globals__", {}).get("OUTPUTS")


def _reduced_shape(x: torch.Tensor, dim: Any, keepdim: bool) -> list[int]:
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        dims = set(range(x.ndim))
    else:
        dims = {int(d) % max(x.ndim, 1) for d in ((dim,) if isinstance(dim, int) else dim)}
    return [1 if i in dims else s for i, s in enumerate(x.shape) if keepdim or i not in dims]


def _all_dims(x: torch.Tensor, dim: Any) -> list[int]:
    return list(range(x.ndim)) if dim is None or len(dim) == 0 else [int(d) for d in dim]


def _norm_shape(x: torch.Tensor, dim: Any) -> list[int]:
    dims = sorted(d % x.ndim for d in _all_dims(x, dim))
    if dims != list(range(x.ndim - len(dims), x.ndim)):
        raise RuntimeError(f"redgen: the backward of a norm over dims {dims} of a {x.ndim}-d tensor needs trailing "
                           f"dims (torch's normalized_shape)")
    return [x.shape[d] for d in dims]


def _layer_norm_ref(a: dict) -> tuple[torch.Tensor, ...]:
    x, dims = a["x"], _all_dims(a["x"], a["dim"])
    shape = _norm_shape(x, a["dim"])
    y = torch.nn.functional.layer_norm(x, shape, a["w"], a["b"], a["eps"])
    xf = x.float()
    mean = xf.mean(dims, keepdim=True)
    rstd = torch.rsqrt(xf.var(dims, correction=0, keepdim=True) + a["eps"])
    return y.to(a["dtype"] or x.dtype), mean, rstd


# torch's own op for each shipped generated op, on the launcher's arguments by name
# (dim as the schema's list): what the backward differentiates.
TORCH_REFS: dict[str, Callable[[dict], Any]] = {
    "mean": lambda a: torch.mean(a["x"], a["dim"] or None, a["keepdim"], dtype=a["dtype"]),
    "sum": lambda a: torch.sum(a["x"], a["dim"] or None, a["keepdim"], dtype=a["dtype"]),
    "amax": lambda a: torch.amax(a["x"], a["dim"] or (), a["keepdim"]).to(a["dtype"] or a["x"].dtype),
    "amin": lambda a: torch.amin(a["x"], a["dim"] or (), a["keepdim"]).to(a["dtype"] or a["x"].dtype),
    "logsumexp": lambda a: torch.logsumexp(a["x"], _all_dims(a["x"], a["dim"]), a["keepdim"]).to(
        a["dtype"] or a["x"].dtype),
    "var": lambda a: torch.var(a["x"], a["dim"] or None, correction=a["correction"], keepdim=a["keepdim"]).to(
        a["dtype"] or a["x"].dtype),
    "std": lambda a: torch.std(a["x"], a["dim"] or None, correction=a["correction"], keepdim=a["keepdim"]).to(
        a["dtype"] or a["x"].dtype),
    "softmax": lambda a: torch.softmax(a["x"], int(a["dim"][0]), dtype=a["dtype"]),
    "log_softmax": lambda a: torch.log_softmax(a["x"], int(a["dim"][0]), dtype=a["dtype"]),
    "rms_norm": lambda a: torch.nn.functional.rms_norm(a["x"], _norm_shape(a["x"], a["dim"]), a["w"],
                                                       a["eps"]).to(a["dtype"] or a["x"].dtype),
    "layer_norm": _layer_norm_ref,
}


def _register_autograd(cop: Any, op: str, sig: inspect.Signature) -> None:
    """Backward = the gradient of TORCH_REFS[op] at the saved inputs (torch's formula)."""
    ref = TORCH_REFS[op]
    positional = [n for n, p in sig.parameters.items() if p.kind is not p.KEYWORD_ONLY]
    has_kw = len(positional) < len(sig.parameters)

    def setup(ctx: Any, inputs: tuple, keyword_only_inputs: dict, output: Any) -> None:
        kw = keyword_only_inputs
        tensors = [i for i, v in enumerate(inputs) if isinstance(v, torch.Tensor)]
        ctx.slots = tensors
        ctx.args = {n: (None if i in tensors else inputs[i]) for i, n in enumerate(positional)}
        ctx.kw = dict(kw)
        ctx.save_for_backward(*(inputs[i] for i in tensors))

    def backward(ctx: Any, *grads: Any) -> tuple:
        a = {**{n: ctx.kw.get(n, p.default) for n, p in sig.parameters.items() if p.kind is p.KEYWORD_ONLY},
             **ctx.args}
        leaves = {}
        with torch.enable_grad():
            for i, t in zip(ctx.slots, ctx.saved_tensors, strict=True):
                leaf = t.detach().requires_grad_(bool(ctx.needs_input_grad[i]))
                a[positional[i]] = leaf
                if ctx.needs_input_grad[i]:
                    leaves[i] = leaf
            outs = ref(a)
            outs = outs if isinstance(outs, tuple) else (outs,)
            pairs = [(o, g) for o, g in zip(outs, grads, strict=True) if g is not None and o.requires_grad]
            got = torch.autograd.grad([o for o, _ in pairs], list(leaves.values()), [g for _, g in pairs],
                                      allow_unused=True) if pairs and leaves else [None] * len(leaves)
        by_slot = dict(zip(leaves, got, strict=True))
        return tuple(by_slot.get(i) for i in range(len(positional)))

    if has_kw:
        cop.register_autograd(backward, setup_context=setup)
    else:
        cop.register_autograd(backward, setup_context=lambda ctx, inputs, output: setup(ctx, inputs, {}, output))  # noqa: E501


# --- attention (specs/attention.red): its own schema and fake (the output has q's shape);
# return_lse stays an option of the launcher ---
def _make_attention(op: str, fn: Callable[..., Any], registered_for: str) -> Any:
    causal = bool(inspect.signature(fn).parameters["causal"].default)
    # (custom ops take no keyword-only tensors: cu_seqlens may also be passed by position)
    schema = (f"(Tensor q, Tensor k, Tensor v, Tensor? cu_seqlens_q=None, Tensor? cu_seqlens_k=None, *, "
              f"bool causal={causal}, float? scale=None, SymInt? max_seqlen_q=None, "
              "SymInt? max_seqlen_k=None) -> Tensor")

    def impl(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, cu_seqlens_q: torch.Tensor | None = None,
             cu_seqlens_k: torch.Tensor | None = None, *, causal: bool = causal, scale: float | None = None,
             max_seqlen_q: int | None = None, max_seqlen_k: int | None = None) -> torch.Tensor:
        target = targets.for_device(q.device.type).name
        run = fn if target == registered_for else load(op, target)
        # scale None: the spec's default (the launcher's own), not 1/sqrt(D) unconditionally.
        extra = {} if scale is None else {"scale": scale}
        return run(q, k, v, causal=causal, cu_seqlens_q=cu_seqlens_q, cu_seqlens_k=cu_seqlens_k,
                   max_seqlen_q=max_seqlen_q, max_seqlen_k=max_seqlen_k, **extra)

    cop = torch.library.custom_op(f"redgen::{op}", impl, mutates_args=(), schema=schema)
    cop.register_fake(lambda q, k, v, *args, **kwargs: torch.empty_like(q))
    return cop


def _make(op: str, fn: Callable[..., Any], registered_for: str) -> Any:
    """The custom op `redgen::<op>`; `fn` is the launcher of target `registered_for` (its schema)."""
    if "cu_seqlens_q" in inspect.signature(fn).parameters:  # --- attention ---
        return _make_attention(op, fn, registered_for)
    sig = inspect.signature(fn)
    int_dim = isinstance(sig.parameters.get("dim", inspect.Parameter("d", inspect.Parameter.KEYWORD_ONLY)).default,
                         int)

    def bind(args: tuple, kwargs: dict) -> inspect.BoundArguments:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        if int_dim and isinstance(bound.arguments.get("dim"), (list, tuple)) and len(bound.arguments["dim"]) == 1:
            bound.arguments["dim"] = bound.arguments["dim"][0]  # a launcher taking one int dim
        return bound

    def impl(*args: Any, **kwargs: Any) -> torch.Tensor:
        bound = bind(args, kwargs)
        x = bound.args[0]
        target = targets.for_device(x.device.type).name
        run = fn if target == registered_for else load(op, target)
        return run(*bound.args, **bound.kwargs)

    outs = _outputs(fn)

    def fake(*args: Any, **kwargs: Any) -> torch.Tensor | tuple[torch.Tensor, ...]:
        contraction = getattr(fn, "__globals__", {}).get("_fake_result")
        if contraction is not None:  # a contraction module (redgen/contraction_emit.py)
            return contraction(*args, **kwargs)
        a = bind(args, kwargs).arguments
        x = next(iter(a.values()))
        dtype = a.get("dtype") or x.dtype
        if outs is not None:
            # Mapped outputs have the input's shape; reduced ones keep the reduced dims as 1.
            res = tuple(x.new_empty(x.shape if kind == "mapped" else _reduced_shape(x, a.get("dim"), True),
                                    dtype=fixed or dtype) for kind, fixed in outs.values())
            return res if len(res) > 1 else res[0]
        if op in SAME_SHAPE:
            return x.new_empty(x.shape, dtype=dtype)
        shape = _reduced_shape(x, a.get("dim"), bool(a.get("keepdim", False)))
        return x.new_empty(shape, dtype=torch.int64 if op in INDEX else dtype)

    cop = torch.library.custom_op(f"redgen::{op}", impl, mutates_args=(), schema=schema_of(fn))
    cop.register_fake(fake)
    if op in TORCH_REFS:
        _register_autograd(cop, op, sig)
    return cop


def register(target: str = "cuda") -> list[str]:
    """Register `redgen::<op>` for every op generated for `target` (idempotent).

    Returns the names registered so far. The launcher of `target` gives the schema;
    at run time each device type runs its own target's module (targets.for_device: CPU tensors
    run cuda's under TRITON_INTERPRET=1, whose launchers say so otherwise).
    """
    with _LOCK:
        for op in available().get(target, ()):
            if op not in _REGISTERED:
                _REGISTERED[op] = _make(op, load(op, target), target)
        return sorted(_REGISTERED)


def registered() -> list[str]:
    """Names of the ops registered under torch.ops.redgen."""
    with _LOCK:
        return sorted(_REGISTERED)


register()
