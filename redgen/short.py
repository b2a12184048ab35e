"""`short N <= bound : op`: the op a spec names for its short rows, found and checked.

A spec may give the reduce lengths up to a bound to another op: softmax holds a row of up to
32768 elements on chip, where max, then sum(exp(x - max)) reads it once and takes one exp an
element, while longer rows need the online combine of softmax_stats (one read for the
statistics, whatever the length). Each op has its own order, proved by its own certificate;
which one computes a row depends on the reduce length alone, so the whole is as batch
invariant as each part. The generated launcher hands such a call to the other op's module.

The other op is the spec `<op>.red` beside this one. Its launcher is called with this op's
arguments, so it must declare the same inputs, parameters and outputs, over the same axes and
dtypes, and reduce the same axis; it may not have a `short` of its own (no chains).
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from redgen import ir
from redgen.errors import BadShort, RedgenError


def spec_path(op: ir.Op) -> Path:
    """The spec of the op named by `op`'s short statement: beside `op`'s own spec."""
    assert op.schedule.short is not None
    return Path(op.path).parent / f"{op.schedule.short.op}.red"


def _signature(op: ir.Op) -> dict:
    return {
        "inputs": [(i.name, i.axes, i.dtypes) for i in op.inputs],
        "parameters": [(p.name, p.default) for p in op.params],
        "outputs": [(o.name, o.axes, o.like, o.dtype) for o in op.outputs],
        "reduce axis": (op.reduce_axis, op.reduce_axes, op.before, op.after),
    }


def resolve(op: ir.Op) -> ir.Op:
    """`op` with its short op's spec checked and its digest recorded (BadShort where it does not fit)."""
    short = getattr(getattr(op, "schedule", None), "short", None)  # contractions and attention have none
    if short is None:
        return op
    from redgen.pipeline import check_spec_only

    path = spec_path(op)
    if not path.is_file():
        raise BadShort(f"'short' names op '{short.op}', but there is no spec {path} beside this one",
                       short.loc, op.source)
    try:
        other = check_spec_only(path)
    except RedgenError as e:
        where = f"{path}:{e.loc.line}:{e.loc.col}" if e.loc is not None else str(path)
        raise BadShort(f"the spec of op '{short.op}' does not check: {where}: error[{e.code}]: {e.message}",
                       short.loc, op.source) from None
    if other.name != short.op:
        raise BadShort(f"{path} declares op '{other.name}', not '{short.op}'", short.loc, op.source)
    if other.schedule.short is not None:
        raise BadShort(f"op '{short.op}' has a 'short' of its own: name an op that computes its rows itself",
                       short.loc, op.source)
    mine, theirs = _signature(op), _signature(other)
    for what in mine:
        if mine[what] != theirs[what]:
            raise BadShort(f"op '{short.op}' ({path}) must have this op's {what}, so that its launcher takes "
                           f"the same call: {theirs[what]} here is {mine[what]}", short.loc, op.source)
    digest = hashlib.sha256(other.source.encode()).hexdigest()
    return dataclasses.replace(op, schedule=dataclasses.replace(
        op.schedule, short=dataclasses.replace(short, digest=digest)))


def with_short_specs(paths: list[Path]) -> list[Path]:
    """`paths` and, after them, the specs their short statements name that are not among them
    (a module imports its short op's module: both are built into the same directory)."""
    from redgen.pipeline import check_spec_only

    have = {p.resolve() for p in paths}
    extra: list[Path] = []
    for p in paths:
        try:
            op = check_spec_only(p)
        except RedgenError:
            continue  # reported when the spec itself is built
        if getattr(getattr(op, "schedule", None), "short", None) is not None:
            q = spec_path(op)
            if q.is_file() and q.resolve() not in have:
                have.add(q.resolve())
                extra.append(q)
    return [*paths, *extra]
