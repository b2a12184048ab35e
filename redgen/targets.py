"""The registry of backends: which targets exist and how each is planned."""

from __future__ import annotations

from .errors import UnknownTarget, did_you_mean
from .plan import PLANNERS


def planner(name: str):
    """The planner of target `name`, or UnknownTarget naming the ones that exist."""
    if name in PLANNERS:
        return PLANNERS[name]
    raise UnknownTarget(f"unknown target '{name}' (available: {', '.join(sorted(PLANNERS))})"
                        + did_you_mean(name, PLANNERS))


def names() -> tuple[str, ...]:
    return tuple(sorted(PLANNERS))
