"""Generated ops as torch custom ops: `torch.ops.redgen.<op>` (e.g. `redgen::mean`).

    import redgen.torch_ops                  # registers every generated op (idempotent)
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
tuple schema. No autograd formula is registered (inference use).
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

import torch

from .loader import available, load

__all__ = ["INDEX", "SAME_SHAPE", "register", "registered", "schema_of"]

# Ops whose output has the input's shape (normalizations over `dim`).
SAME_SHAPE = frozenset({"softmax", "log_softmax", "rms_norm", "layer_norm"})
# Ops whose output is int64 indices into the reduced dims.
INDEX = frozenset({"argmax", "argmin"})

# Which generated target runs a tensor of each device type. CPU tensors run the
# cuda kernels under TRITON_INTERPRET=1 (the launcher says so otherwise).
DEVICE_TARGETS = {"cuda": "cuda", "cpu": "cuda", "npu": "ascend"}

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


def _make(op: str, fn: Callable[..., Any]) -> Any:
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
        target = DEVICE_TARGETS.get(x.device.type, "cuda")
        run = fn if target == "cuda" else load(op, target)
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
    return cop


def register(target: str = "cuda") -> list[str]:
    """Register `redgen::<op>` for every op generated for `target` (idempotent).

    Returns the names registered so far. The launcher of `target` gives the schema;
    at run time each device type runs its own target's module (DEVICE_TARGETS).
    """
    with _LOCK:
        for op in available().get(target, ()):
            if op not in _REGISTERED:
                _REGISTERED[op] = _make(op, load(op, target))
        return sorted(_REGISTERED)


def registered() -> list[str]:
    """Names of the ops registered under torch.ops.redgen."""
    with _LOCK:
        return sorted(_REGISTERED)


register()
