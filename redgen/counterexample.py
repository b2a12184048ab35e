"""Readable counterexamples for plans whose order depends on the batch.

Small, round numbers are easier to read than a solver's model, so a short
search over typical sizes comes first; the z3 model is the fallback.
"""

from __future__ import annotations

import itertools

from . import sym as S
from .errors import NotInvariant
from .plan import Plan

_REDUCE_LENGTHS = (4096, 1000, 128)
_BATCHES = (1, 2, 3, 7, 64)
_CORES = (40, 48, 20)


def _value(expr: S.SExpr, env: dict[str, int]):
    try:
        return expr.eval(env)
    except ZeroDivisionError:
        return None


def find_counterexample(plan: Plan, field: str, expr: S.SExpr, vary: set[str], model) -> NotInvariant:
    """A NotInvariant error naming the spec line, two shapes and the two orders."""
    from .verify import describe

    axis = plan.op.reduce_axis
    names = sorted(vary)
    pair = None
    for n in _REDUCE_LENGTHS:
        pools = [_CORES if v == "cores" else _BATCHES for v in names]
        envs = [dict(zip(names, vals), **{axis: n}) for vals in itertools.product(*pools)]
        base = envs[0]
        for other in envs[1:]:
            full1 = {s: base.get(s, 1) for s in plan.symbols}
            full2 = {s: other.get(s, 1) for s in plan.symbols}
            if _value(expr, full1) != _value(expr, full2):
                pair = (base, other)
                break
        if pair:
            break
    if pair is None and isinstance(model, tuple):
        pair = model
    loc = plan.order.where(field)
    what = {"lanes": "the reduce tile", "chunk": "the chunk length", "num_chunks": "the number of chunks"}[field]
    if pair is None:
        return NotInvariant(
            f"{what} ({expr}) depends on {', '.join(names)} and the solver could not rule out that the "
            f"order changes with them; make it a function of {axis} alone (e.g. fixed_size)",
            loc, plan.op.source)

    def shape(env):
        return ", ".join(f"{k}={env[k]}" for k in [axis, *names] if k in env)

    a, b = pair
    fix = "use fixed_size" if field != "lanes" else f"make the tile of {axis} a constant"
    return NotInvariant(
        f"the order depends on {', '.join(names)}: {what} is {expr}; "
        f"{shape(a)}: {describe(plan, a)}; {shape(b)}: {describe(plan, b)}; {fix}",
        loc, plan.op.source)
