"""A spy on a generated cuda module's launches (its `_go`), for tests that read what ran."""

from __future__ import annotations


def launches(mod, monkeypatch) -> list:
    """(kernel name, constexprs) of every launch of `mod` from now on: no call replays a
    recorded one (its launches would not pass through _go)."""
    monkeypatch.setattr(mod, "_PLANS", {})
    seen = []
    go = mod._go

    def spy(kernel, grid, args, consts):
        seen.append((kernel.fn.__name__, consts))
        return go(kernel, grid, args, consts)

    monkeypatch.setattr(mod, "_go", spy)
    return seen
