"""Render element-wise IR expressions (ir.E) as Triton source text.

This is formatting only: which values exist where (an element of the tile,
a per-row total, a kernel argument) is decided by the emitter and passed in
as `names`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from redgen import functions, ir

_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def render(e: ir.E, name: Callable[[ir.Ref], str], cond: bool = False) -> str:
    """Triton source for `e`; `name` maps each Ref to the variable holding it.

    cond: `e` is a `where` condition, rendered as a truth value (a comparison as it is,
    anything else as `!= 0`); elsewhere a comparison is the number 1.0 or 0.0."""
    if isinstance(e, ir.Lit):
        v = float(e.value)
        text = repr(v) if math.isfinite(v) else f'float("{v}")'
        return f"({text} != 0.0)" if cond else text
    if isinstance(e, ir.Ref):
        return f"({name(e)} != 0.0)" if cond else name(e)
    if e.fn in functions.COMPARISONS:
        a, b = (render(x, name) for x in e.args)
        test = f"({a} {functions.COMPARISONS[e.fn][1]} {b})"
        return test if cond else f"tl.where({test}, 1.0, 0.0)"
    if e.fn == "where":
        args = [render(e.args[0], name, cond=True)] + [render(a, name) for a in e.args[1:]]
    else:
        args = [render(a, name) for a in e.args]
    if e.fn == "neg":
        text = f"(-{args[0]})"
    elif e.fn in _INFIX:
        text = f"({args[0]} {_INFIX[e.fn]} {args[1]})"
    elif e.fn == "powi":
        n = int(e.args[1].value)  # type: ignore[union-attr]
        text = f"_rg_powi({args[0]}, {abs(n)})" if n > 0 else f"(1.0 / _rg_powi({args[0]}, {-n}))"
    elif e.fn == "powf":
        text = f"_rg_{_pow_helper(e)}({args[0]}, {args[1]})"
    else:
        text = functions.FUNCTIONS[e.fn].triton.format(*args)
    return f"({text} != 0.0)" if cond else text


def _pow_helper(e: ir.Apply) -> str:
    """`a ** b` with a non-literal exponent: powp where b is a parameter (one value a launch,
    so the kernel branches on it: b 2 and 1 exactly, without exp and log), else powf."""
    b = e.args[1]
    return "powp" if isinstance(b, ir.Ref) and b.kind == "param" else "powf"


def helpers(exprs: list[ir.E]) -> tuple[str, ...]:
    """The module-level helpers (templates/common/macros.j2) the expressions call, sorted."""
    found: set[str] = set()

    def walk(x: ir.E) -> None:
        if isinstance(x, ir.Apply):
            if x.fn == "powi":
                found.add(x.fn)
            elif x.fn == "powf":
                found.add(_pow_helper(x))
            elif x.fn in functions.FUNCTIONS and functions.FUNCTIONS[x.fn].helper:
                found.add(functions.FUNCTIONS[x.fn].helper)
            for a in x.args:
                walk(a)

    for e in exprs:
        walk(e)
    return tuple(sorted(found))
