"""Render element-wise IR expressions (ir.E) as Triton source text.

This is formatting only: which values exist where (an element of the tile,
a per-row total, a kernel argument) is decided by the emitter and passed in
as `names`.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ir

_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
_CALLS = {
    "exp": "tl.exp", "log": "tl.log", "sqrt": "tl.sqrt", "rsqrt": "tl.rsqrt", "abs": "tl.abs",
    "max": "tl.maximum", "min": "tl.minimum",
}


def render(e: ir.E, name: Callable[[ir.Ref], str]) -> str:
    """Triton source for `e`; `name` maps each Ref to the variable holding it."""
    if isinstance(e, ir.Lit):
        return repr(float(e.value))
    if isinstance(e, ir.Ref):
        return name(e)
    args = [render(a, name) for a in e.args]
    if e.fn == "neg":
        return f"(-{args[0]})"
    if e.fn in _INFIX:
        return f"({args[0]} {_INFIX[e.fn]} {args[1]})"
    return f"{_CALLS[e.fn]}({', '.join(args)})"


def stage_needed(e: ir.E, op: ir.Op) -> int:
    """How many reduction stages must be complete before `e` can be computed."""
    need = 0
    for r in ir.refs(e):
        if r.kind == "reduce":
            need = max(need, next(x.stage for x in op.reductions if x.name == r.name) + 1)
        elif r.kind == "local":
            need = max(need, stage_needed(op.local(r.name).expr, op))
    return need


def inputs_read(e: ir.E, op: ir.Op) -> list[str]:
    """Inputs an expression reads element-wise, through locals too, in declaration order."""
    found: set[str] = set()

    def walk(x: ir.E) -> None:
        for r in ir.refs(x):
            if r.kind == "input":
                found.add(r.name)
            elif r.kind == "local":
                walk(op.local(r.name).expr)

    walk(e)
    return [i.name for i in op.inputs if i.name in found]


def locals_read(exprs: list[ir.E], op: ir.Op) -> list[ir.Local]:
    """Locals the expressions read (transitively), in definition order."""
    found: set[str] = set()

    def walk(x: ir.E) -> None:
        for r in ir.refs(x):
            if r.kind == "local" and r.name not in found:
                found.add(r.name)
                walk(op.local(r.name).expr)

    for e in exprs:
        walk(e)
    return [v for v in op.locals if v.name in found]


def reductions_read(exprs: list[ir.E], op: ir.Op) -> set[str]:
    """Names of the reductions the expressions read, directly or through locals."""
    found = {r.name for e in exprs for r in ir.refs(e) if r.kind == "reduce"}
    for v in locals_read(exprs, op):
        found |= {r.name for r in ir.refs(v.expr) if r.kind == "reduce"}
    return found
