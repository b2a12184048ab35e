"""Readable counterexamples for plans whose order depends on the batch.

A counterexample is two shapes with the same reduce length whose orders
differ, printed as the orders themselves ("M=1: 40 chunks of 103; M=2: 20
chunks of 205"). Small, round numbers are easier to read than a solver's
model, so the search goes:

1. vary one batch symbol at a time over typical sizes (1, 2, 3, 7, 64), the
   other batch symbols at 1 and `cores` at the spec's own budget;
2. vary the core budget alone (the spec's value against other devices');
3. vary every symbol at once over those sizes;
4. ask z3 for the smallest shape that differs from the all-ones shape
   (dependencies that only show at large sizes, e.g. `M / 100000`);
5. the refutation's own model.
"""

from __future__ import annotations

import itertools

from redgen import sym
from redgen.errors import NotInvariant
from redgen.plan import Plan

_REDUCE_LENGTHS = (4096, 1000, 128)
_BATCHES = (1, 2, 3, 7, 64)
_OTHER_CORES = (48, 20, 132, 24)  # other devices' budgets (132: H100 SMs; 24: a smaller NPU)

_FIELD_WORDS = {"lanes": "the reduce tile", "chunk": "the chunk length", "num_chunks": "the number of chunks"}


def _value(expr: sym.SExpr, env: dict[str, int]):
    try:
        return expr.eval(env)
    except ZeroDivisionError:
        return None


def _candidates(plan: Plan, names: list[str]):
    """(base, other) environments over `names` (plus the reduce axis), most readable first."""
    from redgen.verify.certificate import spec_cores

    axis = plan.op.reduce_axis
    cores = spec_cores(plan)
    base = {v: (cores if v == "cores" else 1) for v in names}
    for n in _REDUCE_LENGTHS:
        for v in names:  # 1. and 2.: one symbol at a time
            pool = _OTHER_CORES if v == "cores" else _BATCHES[1:]
            for x in pool:
                yield {**base, axis: n}, {**base, v: x, axis: n}
    for n in _REDUCE_LENGTHS:  # 3.: everything at once
        pools = [(cores, *_OTHER_CORES) if v == "cores" else _BATCHES for v in names]
        for vals in itertools.product(*pools):
            yield {**base, axis: n}, {**dict(zip(names, vals, strict=True)), axis: n}


def _smallest(plan: Plan, expr: sym.SExpr, names: list[str]):
    """z3: the all-ones shape (spec cores) against the smallest shape that gives another value."""
    import z3

    from redgen.verify.certificate import BOUND, spec_cores

    axis = plan.op.reduce_axis
    free = sorted(expr.free())
    base = {v: (spec_cores(plan) if v == "cores" else 1) for v in names}
    for n in (*_REDUCE_LENGTHS, None):
        b = {v: z3.Int(f"{v}_2") for v in free}
        env1 = {v: base.get(v, n) for v in free}
        if axis in free and n is None:
            env1[axis] = b[axis]  # any reduce length, the same on both sides
        elif axis in free:
            env1[axis] = n
            b[axis] = z3.IntVal(n)
        opt = z3.Optimize()
        opt.set("timeout", 5000)
        for v in names:
            opt.add(b[v] >= 1, b[v] <= BOUND)
        if axis in free and n is None:
            opt.add(b[axis] >= 1, b[axis] <= BOUND)
        a1 = {v: (z3.IntVal(x) if isinstance(x, int) else x) for v, x in env1.items()}
        opt.add(expr.z3(a1) != expr.z3(b))
        for v in names:
            opt.minimize(b[v])
        if opt.check() == z3.sat:
            m = opt.model()
            other = {v: m.eval(b[v], model_completion=True).as_long() for v in free}
            first = {v: (m.eval(x, model_completion=True).as_long() if not isinstance(x, int) else x)
                     for v, x in env1.items()}
            return first, other
    return None


def _user_expr(plan: Plan, field: str, expr: sym.SExpr) -> tuple[str, sym.SExpr]:
    """What the user wrote that the field comes from: ('the split count', cores / M)."""
    split = plan.op.schedule.split
    if field != "lanes" and split is not None:
        return ("the split count" if split.kind == "fixed_count" else "the split size"), split.value
    if field == "lanes":
        return "the reduce tile", expr
    return _FIELD_WORDS[field], expr


def find_counterexample(plan: Plan, field: str, expr: sym.SExpr, vary: set[str], model) -> NotInvariant:
    """A NotInvariant error naming the spec line, two shapes and the two orders."""
    from redgen.verify.certificate import describe, invariant_symbols, outputs_text, text

    axis = plan.op.reduce_axis
    names = [v for v in invariant_symbols(plan) if v in vary]
    symbols = list(plan.symbols)

    def full(env):
        return {s: env.get(s, 1) for s in symbols}

    pair = None
    for a, b in _candidates(plan, names):
        if _value(expr, full(a)) != _value(expr, full(b)) and describe(plan, a) != describe(plan, b):
            pair = (a, b)
            break
    if pair is None:
        pair = _smallest(plan, expr, names)
    if pair is None and isinstance(model, tuple):
        pair = model
    loc = plan.order.where(field)
    what, src = _user_expr(plan, field, expr)
    deps = " and ".join(names) if len(names) <= 2 else ", ".join(names)
    outs = outputs_text(plan)
    if pair is None:
        return NotInvariant(
            f"the order of {outs} may depend on {deps}: {what} '{text(src)}' mentions them and the solver "
            f"could not rule out that the order changes with them; make it a function of {axis} alone "
            f"(use fixed_size)", loc, plan.op.source)

    a, b = pair
    changed = [v for v in names if a.get(v) != b.get(v)]
    # Everything the two shapes share, as context: the reduce length and the fixed symbols.
    shared = [f"{axis}={a.get(axis, 4096)}"] if a.get(axis) == b.get(axis) else []
    shared += [f"{s}={a[s]}" for s in names if s in a and s not in changed and a.get(s) == b.get(s)]
    with_lanes = field == "lanes" or describe(plan, a, lanes=False) == describe(plan, b, lanes=False)

    def shape(env):
        return ", ".join(f"{s}={env[s]}" for s in changed)

    if field == "lanes":
        fix = f"make the tile of {axis} a constant power of two"
    else:
        split = plan.op.schedule.split
        if split is not None and split.kind == "fixed_size":
            fix = f"use fixed_size with a constant size (e.g. fixed_size 2048): the order then depends on {axis} alone"
        else:
            fix = (f"use fixed_size (chunks at absolute offsets: the order then depends on {axis} alone) "
                   f"or a constant fixed_count")
    why = ""
    if "cores" in changed:
        why = (f" (the core budget is a property of the device, not of the op: {spec_cores_text(a)} here, "
               f"other devices have others)")
    return NotInvariant(
        f"the order of {outs} depends on {deps}: {what} '{text(src)}' is computed from "
        f"{'it' if len(names) == 1 else 'them'}{why}; with {', '.join(shared) if shared else 'the same ' + axis}: "
        f"{shape(a)}: {describe(plan, a, with_lanes)}; {shape(b)}: {describe(plan, b, with_lanes)}; {fix}",
        loc, plan.op.source)


def spec_cores_text(env: dict[str, int]) -> str:
    return f"cores={env['cores']}"
