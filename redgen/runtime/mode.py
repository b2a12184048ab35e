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
  redgen/runtime/custom_ops.py). Contractions (mm, addmm, bmm, .out): redgen/runtime/matmul_routes.py.
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

from redgen import targets
from redgen.errors import NotCovered, UnknownKernel
from redgen.runtime import fast_route
from redgen.runtime.aten import ROUTES
from redgen.runtime.loader import load
from redgen.runtime.route import Args, Fns, Route, _Fallback
from redgen.runtime.route_replay import MISS, RouteReplay

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


class BatchInvarianceWarning(UserWarning):
    """An aten call ran torch's own kernel because redgen's kernels do not cover it."""


@dataclass
class _State:
    count: int = 0                                         # outstanding enable() calls
    lib: Any = None                                        # the aten IMPL library while enabled
    target: str | None = None
    routes: list[tuple[str, str, str]] = field(default_factory=list)  # (aten, key, "target:op")
    skipped: dict[str, str] = field(default_factory=dict)  # aten -> why it is not routed
    warned: set[tuple[str, str]] = field(default_factory=set)
    calls: Counter = field(default_factory=Counter)        # aten -> routed calls (tests, demo)
    replays: dict[tuple[str, str], RouteReplay] = field(default_factory=dict)  # (aten, key) -> its signatures
    routers: list[Any] = field(default_factory=list)       # the C++ IMPL libraries while enabled (fast_route.py)


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


_SCHEMAS: dict[Any, tuple[tuple[str, ...], tuple[Any, ...]]] = {}


def _schema_args(op: Any, args: tuple, kwargs: dict) -> Args:
    """The call's arguments by schema name, defaults filled in."""
    schema = _SCHEMAS.get(op)
    if schema is None:
        # Read once per op: `op._schema.arguments` builds its Argument objects anew on each
        # access (~15 us of every routed call, more than the kernel's launch).
        arguments = op._schema.arguments
        schema = (tuple(arg.name for arg in arguments),
                  tuple(arg.default_value if arg.has_default_value() else None for arg in arguments))
        _SCHEMAS[op] = schema
    names, defaults = schema
    if not kwargs and len(args) == len(names):  # the dispatcher passes every argument: most calls
        return dict(zip(names, args, strict=True))
    a: Args = dict(zip(names, defaults, strict=True))
    a.update(zip(names, args, strict=False))  # fewer positional than in the schema
    a.update(kwargs)
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


def _make_kernel(route: Route, op: Any, fns: Fns, original: Any, replays: RouteReplay | None) -> Callable[..., Any]:
    def kernel(keyset: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_TLS, "in_fallback", False):
            # Called from inside torch's own kernel (CPU mean calls sum.out, say):
            # let torch finish its way, silently.
            return original.call_boxed(keyset, *args, **kwargs)
        # A signature seen before: its launcher's plan, without the adapter (route_replay.py).
        key = None if replays is None else replays.key(args, kwargs)
        if key is not None:
            out = replays.replay(key, args)
            if out is not MISS:
                with _LOCK:
                    _STATE.calls[route.aten] += 1
                return out
        try:
            # Below the Autograd key: torch's derivative formulas build the graph above this
            # kernel, which computes values only (the launchers refuse inputs that need grad).
            # (grad mode set directly: a torch.no_grad() context costs a few us per call)
            # (switched only where on: inference runs under no_grad / inference_mode)
            grad = torch.is_grad_enabled()
            if grad:
                torch._C._set_grad_enabled(False)
            try:
                a = _schema_args(op, args, kwargs)
                if key is None or any(a.get(n) is not None for n in route.reads):
                    out = route.call(fns, a)  # (a mask's values decide: never replayed)
                else:
                    out = replays.probe(key, args, lambda: route.call(fns, a))
            finally:
                if grad:
                    torch._C._set_grad_enabled(True)
        except _Fallback as fb:
            _on_fallback(route.aten, fb.reason)
            # The kernel captured before overriding: never re-enters this override.
            _TLS.in_fallback = True
            fast_route.set_in_fallback(True)
            try:
                return original.call_boxed(keyset, *args, **kwargs)
            finally:
                _TLS.in_fallback = False
                fast_route.set_in_fallback(False)
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
    routers: list[Any] = []
    try:
        for key, tgt in keys:
            # The replayable routes' kernels in C++ where it builds (fast_route.py); the CPU key
            # only under the interpreter, where CI exercises it.
            router = fast_route.router(key) if key in ("CUDA", "CPU") else None
            if router is not None:
                routers.append(router)
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
                    replays = _kept_replays(route.aten, key, fns, route.holds, route.lengths) if route.signature_only else None
                    if replays is not None:
                        _STATE.replays[route.aten, key] = replays
                    kernel = _make_kernel(route, op, fns, original, replays)
                    if router is not None and replays is not None:
                        miss = fast_route.miss_handler(kernel, _KEYSETS[key], replays, _in_fallback)
                        router.add(opname.removeprefix("aten::"), fast_route.route_id(route.aten, key), miss)
                    else:
                        lib.impl(opname.removeprefix("aten::"), kernel, key, with_keyset=True)
                _STATE.routes.append((route.aten, key, f"{tgt}:{route.ops[0]}"))
                _STATE.skipped.pop(route.aten, None)
    except BaseException:
        lib._destroy()
        routers.clear()
        raise
    _STATE.lib = lib
    _STATE.routers = routers


class _KeySets(dict):
    """dispatch key name -> the keyset a C++-routed call hands the Python kernel (its fallback's)."""

    def __missing__(self, key: str) -> Any:
        got = self[key] = torch._C.DispatchKeySet(getattr(torch._C.DispatchKey, key))
        return got


_KEYSETS = _KeySets()


def _in_fallback() -> bool:
    return getattr(_TLS, "in_fallback", False)


# Each route's recorded signatures outlive the mode (a model wrapped in batch_invariant() per
# generate would otherwise probe every signature again at each entry): kept per (aten, key) for
# the same generated functions. A replay checks its module's knobs on every call anyway.
_KEPT: dict[tuple[str, str], RouteReplay] = {}


def _kept_replays(aten: str, key: str, fns: Fns, holds: bool, lengths: tuple = ()) -> RouteReplay:
    rr = _KEPT.get((aten, key))
    if rr is None or rr.fns != fns or rr.holds != holds or rr.lengths != lengths:
        rr = _KEPT[aten, key] = RouteReplay(fns, holds, lengths)
    return rr


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
    from redgen.runtime.loader import available

    return op in available().get(target, ())


def _uninstall() -> None:
    if _STATE.lib is not None:
        _STATE.lib._destroy()
    _STATE.lib = None
    _STATE.routers = []  # their kernels go with them
    fast_route.forget()
    _STATE.routes = []
    _STATE.replays = {}


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
        return Counter(_STATE.calls) + Counter(fast_route.hits())
