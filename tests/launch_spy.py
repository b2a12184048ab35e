"""A spy on a generated cuda module's launches (its `_go`), for tests that read what ran."""

from __future__ import annotations

import inspect
import re
from contextlib import contextmanager

# what a launch's keywords may hold besides the kernel's parameters (triton's compile options)
LAUNCH_OPTIONS = frozenset({"num_warps", "num_stages", "num_ctas", "enable_fp_fusion", "maxnreg"})


def launches(mod, monkeypatch) -> list:
    """(kernel name, constexprs) of every launch of `mod` from now on: no call replays a
    recorded one (its launches would not pass through _go)."""
    monkeypatch.setattr(mod, "_PLANS", {})
    seen = []
    go = mod._go

    def spy(kernel, grid, args, consts):
        # Every constexpr a launch passes is one of the kernel's parameters: the interpreter takes an
        # unknown keyword silently, a GPU compile refuses it (launch options aside).
        extra = set(consts) - set(kernel.arg_names) - LAUNCH_OPTIONS
        assert not extra, f"{kernel.fn.__name__} has no parameter {sorted(extra)}"
        seen.append((kernel.fn.__name__, consts))
        return go(kernel, grid, args, consts)

    monkeypatch.setattr(mod, "_go", spy)
    return seen


@contextmanager
def knobs(mod, **values):
    """`mod`'s module knobs set to `values` inside the block (a call's recorded launches keyed by
    them, so a replayed signature cannot hide the change), restored after."""
    own = {k: getattr(mod, k) for k in values}
    for k, v in values.items():
        setattr(mod, k, v)
    try:
        yield
    finally:
        for k, v in own.items():
            setattr(mod, k, v)


def schedule_knobs(mod, prefix: str) -> set[str]:
    """The knobs named `prefix`* that `mod`'s _schedule reads, each asserted to be in its _knobs (a
    replayed call's key): a knob set between calls (a sweep) must record anew, not replay the old
    launches."""
    read = set(re.findall(rf"\b{prefix}[A-Z_]+\b", inspect.getsource(mod._schedule)))
    held = inspect.getsource(mod._knobs)
    assert all(k in held for k in read), sorted(read)
    return read
