"""The registry of backends: which targets exist and how each is planned."""

from __future__ import annotations

from .errors import UnknownTarget, did_you_mean
from .plan import PLANNERS

# Targets redgen knows about but cannot build yet, with what to do instead.
PENDING: dict[str, str] = {}


def planner(name: str):
    """The planner of target `name`, or UnknownTarget naming the ones that exist."""
    if name in PLANNERS:
        return PLANNERS[name]
    if name in PENDING:
        raise UnknownTarget(PENDING[name])
    raise UnknownTarget(f"unknown target '{name}' (available: {', '.join(sorted(PLANNERS))})"
                        + did_you_mean(name, [*PLANNERS, *PENDING]))


def names() -> tuple[str, ...]:
    return tuple(sorted(PLANNERS))
