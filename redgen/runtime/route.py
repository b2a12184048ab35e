"""A route: one aten overload and the adapter that maps its arguments onto generated launchers;
the helpers every adapter shares (what falls back, what is covered).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


class _Fallback(Exception):  # noqa: N818 -- internal signal, not an error
    """Raised by an adapter: this call is not covered; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


Fns = dict[str, Callable[..., Any]]


Args = dict[str, Any]


def _float_input(x: torch.Tensor, name: str = "input") -> None:
    if not isinstance(x, torch.Tensor) or x.dtype not in _FLOATS:
        raise _Fallback(f"{getattr(x, 'dtype', type(x).__name__)} {name}")


def _float_dtype(dtype: torch.dtype | None) -> None:
    if dtype is not None and dtype not in _FLOATS:
        raise _Fallback(f"dtype={dtype}")


def _dims(dim: Any) -> tuple[int, ...] | None:
    return None if dim is None else tuple(map(int, dim))


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


@dataclass(frozen=True)
class Route:
    """One aten overload and how it maps onto generated ops."""

    aten: str                         # overload name under torch.ops.aten, e.g. "mean.dim"
    ops: tuple[str, ...]              # generated ops it needs (all must exist)
    call: Callable[[Fns, Args], Any]  # the adapter
    params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # keywords each op must accept
    optional: tuple[str, ...] = ()    # generated ops the adapter uses when they exist
    # The adapter decides from the call's signature alone (shapes, strides, dtypes, devices, the
    # other arguments' values), never from a tensor's contents: a repeated signature may replay
    # the plan its launcher ran (runtime/route_replay.py). An adapter that reads some argument's
    # values names it in `reads` instead (attention's masks): only calls passing it are excluded.
    signature_only: bool = True
    # Arguments whose tensor values the adapter reads (attention's masks): a call that passes one
    # is never replayed; one that passes None is decided by its signature alone.
    reads: tuple[str, ...] = ()
    # The adapter returns more than its launcher's result: views of its outputs, integers, and
    # tensors that the signature alone decides (attention's cached unused outputs). A replay
    # returns those same tensors (route_replay.py `_returns`).
    holds: bool = False
    # The integers the adapter returns that are an argument's size: (return, argument's place in
    # the aten schema, dim). A plan standing for calls of other sizes (fast_route.py `_family`:
    # attention's key length) returns theirs; an integer return not named here keeps a plan to
    # its own signature.
    lengths: tuple[tuple[int, int, int], ...] = ()
