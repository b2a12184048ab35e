"""Routed aten calls replayed by their signature: the adapter is skipped where it adds nothing.

A routed call runs its adapter (runtime/aten.py, matmul_routes.py), which checks the call and
calls a generated launcher; the launcher replays the plan it recorded for its own signature
(templates/cuda/replay.py.j2: kernels, grids, arguments, outputs, workspaces). When the
adapter's decisions depend on the call's signature alone (`Route.signature_only`: shapes,
strides, dtypes, devices and the other arguments' values, never a tensor's contents), and it
hands the call's own tensors to one launcher and returns that launcher's result unchanged,
then for a repeated aten signature the adapter, the launcher's own checks and its key are the
same work every time. So the first call of an aten signature is probed: the launcher reports
the plan it ran (its `_PROBE`), and later calls of that signature replay that plan with their
own tensors. The kernels, grids and arguments are the launcher's, so are the bits; a module
knob set between calls (a forced path, a sweep) is checked on every replay and re-probes.

A route with `holds` (attention's) may return more than its launcher's result: its outputs'
views, integers and tensors its signature decides (cached); the plan records how (`_returns`)
and a replay returns the same (`assemble`). A call passing a tensor whose values the adapter
reads (`Route.reads`: a mask) is never probed.

A tensor the adapter made (a copy, a view, a tensor of ones for a missing weight), a second
launcher call, an `.out` overload's copy into its out tensor, or a launcher call that was not
replayable: nothing is recorded, and the call keeps the adapter's path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import torch

_PLAIN = frozenset((int, float, bool, str, type(None), torch.dtype))
MISS = object()  # replay(): no plan for this signature
_LIMIT = 1024  # a bound, not an LRU: the signatures of a serving loop repeat


def _sig(a: Any) -> Any:
    if isinstance(a, torch.Tensor):
        return (a.__class__, a.shape, a.stride(), a.dtype, a.device, a.requires_grad, a.data_ptr() % 16 == 0)
    if a.__class__ in _PLAIN:
        return (a.__class__, a)  # the type too: 1, 1.0 and True hash alike
    if a.__class__ in (list, tuple):
        return (a.__class__, *map(_sig, a))
    raise TypeError(a.__class__.__name__)


def _same_result(a: Any, b: Any) -> bool:
    if a is b:
        return True
    return (a.__class__ is tuple and b.__class__ is tuple and len(a) == len(b)
            and all(x is y for x, y in zip(a, b, strict=True)))


def _returns(out: Any, got: Any) -> tuple | None:
    """How each of the adapter's results `out` comes from its launcher's `got` (a Route with
    `holds`): (0, j) the launcher's j-th output, (1, j, shape, strides, offset) a view of it,
    (2, tensor) a tensor the signature decides (held), (3, n) an integer. None where one is
    none of those."""
    if out.__class__ is not tuple:
        return None
    gots = got if got.__class__ is tuple else (got,)
    rets: list[tuple] = []
    for o in out:
        j = next((j for j, g in enumerate(gots) if o is g), None)
        if j is not None:
            rets.append((0, j))
        elif isinstance(o, torch.Tensor):
            ptr = o.untyped_storage().data_ptr()
            j = next((j for j, g in enumerate(gots) if ptr and g.untyped_storage().data_ptr() == ptr), None)
            rets.append((2, o) if j is None else (1, j, tuple(o.shape), o.stride(), o.storage_offset()))
        elif o.__class__ is int:
            rets.append((3, o))
        else:
            return None
    return tuple(rets)


def assemble(rets: tuple, got: Any) -> tuple:
    """The adapter's results, from its launcher's `got` as `_returns` described them."""
    gots = got if got.__class__ is tuple else (got,)
    return tuple(gots[r[1]] if r[0] == 0 else gots[r[1]].as_strided(r[2], r[3], r[4]) if r[0] == 1 else r[1]
                 for r in rets)


class RouteReplay:
    """One route's recorded signatures: aten signature -> (module, plan, tensor places, knobs,
    returns: None where the launcher's result is the call's, the plan's family or None)."""

    def __init__(self, fns: dict[str, Callable[..., Any]], holds: bool = False, lengths: tuple = ()):
        self.fns = dict(fns)  # the generated functions whose plans these are
        self.holds = holds  # Route.holds: the adapter returns more than its launcher's result
        self.lengths = lengths  # Route.lengths: the returned integers that are an argument's size
        found = [sys.modules.get(f.__module__) for f in fns.values()]
        # A module that hands its short rows to another op's module (`short` in its spec) runs
        # that module's launcher for them: its plans are recorded there.
        found += [m._short_module() for m in found if m is not None and hasattr(m, "_short_module")]
        mods = {id(m): m for m in found if m is not None and hasattr(m, "_PROBE")}
        self.mods = tuple(mods.values())  # the generated modules with a replay (cuda)
        self.plans: dict[tuple, tuple] = {}
        self.device = torch._C._cuda_getDevice if torch.cuda.is_available() else (lambda: -1)

    def key(self, args: tuple, kwargs: dict) -> tuple | None:
        """The call's signature (None: an argument with none, such as a fake tensor)."""
        if not self.mods:
            return None
        try:
            if not kwargs:  # the dispatcher passes every argument positionally: most calls
                return (self.device(), *map(_sig, args))
            return (self.device(), *map(_sig, args), *((k, _sig(v)) for k, v in kwargs.items()))
        except Exception:  # noqa: BLE001 - no signature: the adapter's path
            return None

    def replay(self, key: tuple, args: tuple) -> Any:
        """The recorded plan run on this call's tensors, or MISS where there is none (or a knob changed)."""
        hit = self.plans.get(key)
        if hit is None:
            return MISS
        mod, plan, places, knobs, rets, _ = hit
        if mod._knobs() != knobs:
            self.plans.pop(key, None)
            return MISS
        # places None: each tensor the launcher took is the call's argument at its own position
        # (the replay reads tensors alone), so the call's arguments serve as they are.
        got = mod._replay(plan, args if places is None else [args[j] if j >= 0 else None for j in places])
        return got if rets is None else assemble(rets, got)

    def probe(self, key: tuple, args: tuple, call: Callable[[], Any]) -> Any:
        """call() (the adapter), recording its launcher's plan for this signature where it may be."""
        for m in self.mods:
            m._PROBE = []
        try:
            out = call()
        finally:
            seen = [(m, e) for m in self.mods for e in (m._PROBE or ())]
            for m in self.mods:
                m._PROBE = None
        if len(seen) != 1:
            return out
        # (a launcher whose plans stand for other signatures' too reports how: attention's `_family`)
        mod, (plan, gargs, got, knobs, *family) = seen[0]
        rets = None
        if not _same_result(got, out):
            rets = _returns(out, got) if self.holds else None
            if rets is None:
                return out
        places = []
        for g in gargs:
            if isinstance(g, torch.Tensor):
                j = next((j for j, a in enumerate(args) if a is g), -1)
                if j < 0:
                    return out  # a tensor the adapter made: its launcher's plan is not the call's
                places.append(j)
            else:
                places.append(-1)
        if len(self.plans) >= _LIMIT:
            self.plans.clear()
        same = all(j < 0 or j == i for i, j in enumerate(places))
        self.plans[key] = (mod, plan, None if same else tuple(places), knobs, rets, family[0] if family else None)
        return out
