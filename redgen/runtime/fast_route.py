"""The batch-invariant mode's replayable routes and the generated launchers' repeated calls,
served in C++ (csrc/fast_route.cpp).

A routed aten call whose adapter decides from the call's signature alone (`Route.signature_only`)
replays, from its second call of a signature on, the plan its generated launcher recorded
(route_replay.py). From Python, that still costs the dispatcher's trip into Python and back:
about 12 us a call on an H100, more than the replay itself (docs/gpu_2026_11_26, run 43). Here
the route's kernel at the dispatch key is C++: a signature with a plan is served there (outputs
and workspaces allocated, the workspaces as one buffer, the recorded compiled kernels launched
through the driver with the recorded arguments: the same kernels, grids and arguments, so the
same bits); every other call goes to the mode's Python kernel as before, and its plan, where one
was recorded, is handed to C++ for the next call (`describe`).

A plan launches from C++ where every launch is a Triton-compiled CUDA kernel with one CTA per
program, no cooperative or PDL launch, no scratch, no launch hooks (a profiler's), and every
parameter a pointer, an integer or an fp32 whose place and size the PTX entry confirms. Any
other recorded plan (the interpreter, a launcher of another Triton) is replayed by Python
called from C++: the same replay as route_replay.py's, without the adapter. A generated
module's knob set after a plan was recorded (`mod.SPLIT_BELOW = ...`) makes every plan stale
(each module watches its knobs' names: its `_watch`): the next call takes the Python route, which
checks the knobs and probes again.

A generated launcher's own repeated calls take the same C++ replay (`bind`, which redgen.load
applies on a CUDA machine): its public function asks the module's `_FAST` before any of its own
Python, and its `_replayed` hands over the plan of each signature it records or replays. Dense
attention, bound by its geometry rather than recorded, hands over the plan of each call's whole
signature (templates/cuda/attention.py.j2 `_hand_over`) with its family (`_family`: what the key
length moves), from which C++ makes the plans of the key lengths a decode meets next.

Built on first use with torch.utils.cpp_extension (a C++ compiler and ninja; about 30 s, then
cached). REDGEN_FAST_ROUTE=0 turns it off; where it cannot be built, `status()` says why and
the mode runs its Python route, with the same bits.
"""

from __future__ import annotations

import os
import re
import struct
import sysconfig
import threading
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from redgen.runtime.route_replay import assemble

_LOCK = threading.Lock()
_EXT: Any = None     # the built extension
_WHY: str | None = None  # why there is none (None: not tried yet, or built)
_IDS: dict[tuple[str, str], int] = {}  # (aten overload, dispatch key) -> route id in C++


def load() -> Any:
    """The built extension, or None (`status()` says why)."""
    global _EXT, _WHY
    with _LOCK:
        if _EXT is not None or _WHY is not None:
            return _EXT
        try:
            from torch.utils.cpp_extension import load as build

            # torch finds ninja on PATH: the one pip installed beside this Python, even where its
            # environment is not activated.
            scripts = sysconfig.get_path("scripts")
            if scripts and scripts not in os.environ.get("PATH", "").split(os.pathsep):
                os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")

            source = Path(__file__).with_name("csrc") / "fast_route.cpp"
            _EXT = build(name="redgen_fast_route", sources=[str(source)], extra_cflags=["-O2"], verbose=False)
        except Exception as e:  # noqa: BLE001 - any build failure: the Python route serves
            first = (str(e).strip().splitlines() or [""])[0][:300]
            _WHY = f"could not build csrc/fast_route.cpp ({e.__class__.__name__}: {first})"
        return _EXT


def _off() -> bool:
    # Read at each enable(): a benchmark may time both routes in one process. Any other value
    # than 0 or 1 is refused: a misspelt "off" must not leave the route silently on.
    value = os.environ.get("REDGEN_FAST_ROUTE", "1")
    if value not in ("0", "1"):
        raise ValueError(f"REDGEN_FAST_ROUTE={value!r}: set it to 0 (the mode's replayable routes run in "
                         f"Python) or 1 (in C++, the default), or unset it")
    return value == "0"


def status() -> str:
    """'on', or why the mode's replayable routes run in Python."""
    if _off():
        return "off (REDGEN_FAST_ROUTE=0)"
    return "on" if load() is not None else str(_WHY)


def router(key: str) -> Any:
    """A C++ IMPL library of aten at dispatch key `key`, or None (off, or no extension)."""
    ext = None if _off() else load()
    return None if ext is None else ext.Router(key)


def route_id(aten: str, key: str) -> int:
    return _IDS.setdefault((aten, key), len(_IDS))


def hits() -> dict[str, int]:
    """aten overload -> calls served from a C++ plan (process lifetime)."""
    got: dict[str, int] = {}
    if _EXT is not None:
        for (aten, _), rid in _IDS.items():
            got[aten] = got.get(aten, 0) + _EXT.hits(rid)
    return got


def forget() -> None:
    """Drop every recorded plan (the mode's last disable)."""
    if _EXT is not None:
        _EXT.clear()


def plans() -> tuple[int, int]:
    """(plans launching from C++, plans replayed by Python) recorded now."""
    return (0, 0) if _EXT is None else _EXT.size()


def set_in_fallback(on: bool) -> None:
    """This thread is (no longer) inside torch's own kernel for a fallback: no plan serves then."""
    if _EXT is not None:
        _EXT.set_in_fallback(on)


# --- knobs: a generated module's knob set after a plan was recorded makes every plan stale ---
def _bump() -> None:
    if _EXT is not None:
        _EXT.bump()


def _watch(mod: types.ModuleType) -> None:
    # A knob, or any public global (SHORT_MAX, which hands short rows to another module before
    # a plan is asked for): the module's own watch (templates/cuda/replay.py.j2 `_watch`) calls
    # _bump on each setting, which makes every C++ plan stale (one Python call each).
    if mod.__dict__.get("_ON_KNOB") is not _bump:
        mod._watch(mod, _bump)


# --- a recorded plan, as C++ takes it ---
def describe(rr: Any, args: tuple, kwargs: dict) -> tuple | None:
    """The plan `rr` (a RouteReplay) holds for this call's signature, for C++; None if none."""
    key = rr.key(args, kwargs)
    hit = None if key is None else rr.plans.get(key)
    if hit is None:
        return None
    mod, plan, places, _, rets, family = hit
    for m in rr.mods:
        _watch(m)
    launches = _launches(mod, plan, places)
    if launches is not None:
        moved = None if family is None else _family(plan, places, family, rets, rr.lengths)
        if moved is not None:
            return (*launches, rets, moved)
        return launches if rets is None else (*launches, rets)

    def replay(a: tuple, kw: dict) -> Any:
        got = mod._replay(plan, a if places is None else [a[j] if j >= 0 else None for j in places])
        return got if rets is None else assemble(rets, got)

    return ("python", replay)


_SIZES = {"u64": 8, "s64": 8, "b64": 8, "u32": 4, "s32": 4, "b32": 4, "f32": 4}
_INTS = {"i32": 4, "u32": 4, "i1": 4, "u1": 4, "i64": 8, "u64": 8}
_ENTRY = re.compile(r"\.entry\s+[\w$]+\s*\((.*?)\)", re.S)
_PARAM = re.compile(r"\.param\s+\.(\w+)")


def _ptx_params(compiled: Any) -> list[int] | None:
    """The byte size of each parameter of the compiled kernel's PTX entry (None: not known)."""
    ptx = getattr(compiled, "asm", {}).get("ptx")
    m = None if not isinstance(ptx, str) else _ENTRY.search(ptx)
    if m is None:
        return None
    sizes = [_SIZES.get(t) for t in _PARAM.findall(m.group(1))]
    return None if None in sizes else sizes


def _launches(mod: Any, plan: tuple, places: tuple | None) -> tuple | None:
    """("launch", device, outs, workspaces, launches, current device) where C++ can launch every
    kernel itself (and no profiler's launch hooks are set: C++ would not call them)."""
    return None if mod._hooks() != (None, None) else _described(plan, places)


def _described(plan: tuple, places: tuple | None) -> tuple | None:
    """_launches' description, from the plan alone."""
    _, current, device, outs, scratch, launches, _, direct = plan
    if direct is None or getattr(device, "type", None) != "cuda":
        return None
    got = []
    for kernel, _, template, slots, _, bound in launches:
        compiled, _, function, _, grid3, tail, (_, cooperative, pdl) = bound
        meta = compiled.metadata
        if cooperative or pdl or getattr(meta, "num_ctas", 1) != 1:
            return None
        params = _params(kernel, compiled, (*template, *tail), slots, places)
        if params is None:
            return None
        got.append((function, tuple(grid3), 32 * meta.num_warps, meta.shared, params))
    # (the current device's stream, as the launcher's replay takes)
    return ("launch", device.index, outs, scratch, tuple(got), current)


# (id(kernel), id(compiled), slots, places) -> (kernel, compiled, what _recipe found): each launch's
# parameters worked out once for where its tensors come from, not once a plan (a decode's attention
# hands a new key length's plan over in every step's first layer: on an H100's host the PTX regex
# took 6 us a kernel, and this loop's type checks most of a plan's description, run 246). Kernel and
# compiled kernel held: their ids are never reused.
_RECIPES: dict[tuple, tuple] = {}
_POINTER, _INT, _F32 = 0, 1, 2


def _recipe(kernel: Any, compiled: Any, slots: tuple, places: tuple | None) -> tuple | None:
    """(each PTX parameter's recipe, the PTX's extra parameters, the argument count) for a launch
    whose tensor arguments come from `slots` (and `places`), or None where C++ cannot launch it.
    A recipe: (_POINTER, its parameter), (_INT, argument position, byte size), (_F32, position)."""
    key = (id(kernel), id(compiled), slots, places)
    got = _RECIPES.get(key)
    if got is None:
        if len(_RECIPES) >= 4096:  # a bound, not an LRU: a process launches few kinds of launch
            _RECIPES.clear()
        got = _RECIPES[key] = (kernel, compiled, _work_out(kernel, compiled, slots, places))
    return got[2]


def _work_out(kernel: Any, compiled: Any, slots: tuple, places: tuple | None) -> tuple | None:
    sig = getattr(getattr(compiled, "src", None), "signature", None)
    names = [p.name for p in kernel.params]
    sizes = _ptx_params(compiled)
    if not isinstance(sig, dict) or list(sig) != names or sizes is None:
        return None
    kept = [(pos, ty) for pos, ty in enumerate(sig.values()) if ty != "constexpr"]
    if len(sizes) < len(kept) or any(s != 8 for s in sizes[len(kept):]):
        return None
    where = {pos: (src, i) for pos, src, i in slots}
    recipe = []
    for (pos, ty), size in zip(kept, sizes, strict=False):
        if isinstance(ty, str) and ty.startswith("*"):
            if pos not in where or size != 8:
                return None
            src, i = where[pos]
            if src == 0:  # the launcher's i-th argument: the aten call's argument places[i]
                i = i if places is None else places[i]
                if i < 0:
                    return None
            recipe.append((_POINTER, (8, src, i)))
        elif ty in _INTS and _INTS[ty] == size:
            recipe.append((_INT, pos, size))
        elif ty == "fp32" and size == 4:
            recipe.append((_F32, pos))
        else:
            return None
    return tuple(recipe), len(sizes) - len(kept), len(names)


def _params(kernel: Any, compiled: Any, values: tuple, slots: tuple, places: tuple | None) -> tuple | None:
    """Each PTX parameter as (size, source, value) (csrc/fast_route.cpp: Param), or None."""
    got = _recipe(kernel, compiled, slots, places)
    if got is None or len(values) != got[2]:
        return None
    out = []
    for r in got[0]:
        if r[0] == _POINTER:
            out.append(r[1])
            continue
        v = values[r[1]]
        if r[0] == _INT:
            if v.__class__ is not int and v.__class__ is not bool:
                return None
            bits = int(v) & (2**64 - 1)
            out.append((r[2], -1, bits - 2**64 if bits >= 2**63 else bits))
        elif v.__class__ is int or v.__class__ is float:
            out.append((4, -1, struct.unpack("<i", struct.pack("<f", float(v)))[0]))
        else:
            return None
    # The parameters the PTX has beyond the signature's: Triton's scratch pointers, null without scratch.
    out += [(8, -1, 0)] * got[1]
    return tuple(out)


def _family(plan: tuple, places: tuple | None, family: tuple, rets: tuple | None = None,
            lengths: tuple = ()) -> tuple | None:
    """The C++ form (csrc/fast_route.cpp `Family`) of a launcher's family of plans: `family` is
    (quantities, checks, each launch's moving arguments, moving grid dims, moving workspaces) in
    the launcher's terms (templates/cuda/attention.py.j2 `_family`); `places` maps its arguments
    to the call's. `rets`: the call's returns (route_replay.py `_returns`), whose integers move
    where `lengths` ((return, argument, dim): that argument's size) names a quantity; an integer
    return it does not name could move unseen, so none is taken then. None where the plan cannot
    be described so (a moving argument Triton did not pass as an integer)."""
    quantities, checks, moving, grids, scratch = family
    qs = []
    for arg, kind, dim, divisor in quantities:
        j = arg if places is None else places[arg]
        if j < 0:
            return None
        qs.append((j, kind, dim, divisor))
    params = []
    for li, (launch, moves) in enumerate(zip(plan[5], moving, strict=True)):
        kernel, _, _, slots, _, bound = launch
        compiled = bound[0]
        got = _recipe(kernel, compiled, slots, places)
        if got is None:
            return None
        at = {r[1]: p for p, r in enumerate(got[0]) if r[0] == _INT}
        sig = list(compiled.src.signature.values())
        for pos, qi in moves:
            if pos in at:
                params.append((li, at[pos], qi))
            elif sig[pos] != "constexpr":  # (an integer Triton specialized away: its class is in the key)
                return None
    moved_rets = []
    for r, ret in enumerate(rets or ()):
        if ret[0] != 3:
            continue
        named = [(a, d) for at_ret, a, d in lengths if at_ret == r]
        if not named:
            return None
        q = next((i for i, x in enumerate(qs) if x == (named[0][0], 0, named[0][1], 1)), None)
        if q is not None:
            moved_rets.append((r, q))
    return (tuple(qs), tuple(checks), tuple(params), tuple(grids),
            tuple((1, k, 0, qi, factor) for k, qi, factor in scratch), tuple(moved_rets))


# --- a generated launcher's own calls (`redgen.load("mean")(x, 1)`) ---
class _Bound:
    """What a generated module's `_FAST` holds (templates/cuda/replay.py.j2 `_replayed`): the C++
    replay of its recorded plans, and how a plan gets there."""

    __slots__ = ("mod", "replay", "runs", "descs")

    def __init__(self, mod: types.ModuleType, ext: Any):
        self.mod = mod
        self.replay = ext.replay  # (id(run), args) -> the launcher's result, or None: its Python path
        self.runs: dict[int, Any] = {}  # id -> the function itself: an id in a key is never reused
        # id(plan) -> (plan, its description or None). A plan C++ cannot launch is handed over on
        # each of its calls (the Python path serves them all): it is described once, not each time
        # (the PTX parse). The plan is held, so its id is never reused.
        self.descs: dict[int, tuple] = {}

    def store(self, run: Any, args: tuple, plan: tuple, family: tuple | None = None) -> None:
        """Hand C++ the plan `run(*args)` recorded (where C++ can launch all of it); `family`:
        the plans of other signatures it stands for (_family), or None."""
        if self.mod._hooks() != (None, None):
            return  # a profiler's hooks: C++ would not call them
        got = self.descs.get(id(plan))
        if got is None:
            if len(self.descs) >= 4096:  # a bound, not an LRU, as the launchers' own plans
                self.descs.clear()
            got = self.descs[id(plan)] = (plan, _described(plan, None))
        desc = got[1]
        if desc is not None and family is not None:
            moved = _family(plan, None, family)
            desc = desc if moved is None else (*desc, None, moved)
        if desc is not None:
            self.runs[id(run)] = run
            _watch(self.mod)
            _EXT.store(id(run), args, desc, bool(plan[0]), bool(plan[6]))


def bind(mod: types.ModuleType) -> bool:
    """Serve `mod`'s replays (a generated cuda module) from C++: a repeated signature's call then
    costs no Python beyond the call itself. True where bound (a CUDA device, not interpreting,
    the extension built, REDGEN_FAST_ROUTE not 0); redgen.load binds what it loads."""
    if getattr(mod, "_FAST", False) is not None:
        return getattr(mod, "_FAST", None) is not None  # bound already, or a module without the hook
    if getattr(mod, "_INTERPRET", True) or _off():
        return False
    import torch

    if not torch.cuda.is_available() or load() is None:
        return False
    mod._FAST = _Bound(mod, _EXT)
    if hasattr(mod, "_short_module"):  # the module it hands its short rows to
        bind(mod._short_module())
    return True


def miss_handler(kernel: Callable[..., Any], keyset: Any, rr: Any, in_fallback: Callable[[], bool]) -> Callable:
    """What C++ calls for a call it has no plan for: the mode's kernel, then the plan it recorded."""

    def miss(args: tuple, kwargs: dict) -> tuple[Any, tuple | None]:
        out = kernel(keyset, *args, **kwargs)
        if rr is None or in_fallback():
            return out, None
        return out, describe(rr, args, kwargs)

    return miss
