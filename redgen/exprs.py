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
        helper = _pow_helper(e)
        if helper == "powpa":  # |a| ** b: the helper takes a itself (b 2 is a * a, the sign squared away)
            text = f"_rg_powpa({render(e.args[0].args[0], name)}, {args[1]}, {pow_form(args[1])})"  # type: ignore[union-attr]
        elif helper == "powp":
            text = f"_rg_powp({args[0]}, {args[1]}, {pow_form(args[1])})"
        else:
            text = f"_rg_powf({args[0]}, {args[1]})"
    else:
        text = functions.FUNCTIONS[e.fn].triton.format(*args)
    return f"({text} != 0.0)" if cond else text


def _pow_helper(e: ir.Apply) -> str:
    """`a ** b` with a non-literal exponent: powp where b is a parameter (one value a launch,
    which the launcher reads into the constexpr pow_form(b): b 2 and 1 exactly, without exp and
    log), powpa where a is moreover abs(x), else powf."""
    a, b = e.args
    if not (isinstance(b, ir.Ref) and b.kind == "param"):
        return "powf"
    return "powpa" if isinstance(a, ir.Apply) and a.fn == "abs" else "powp"


def pow_form(param: str) -> str:
    """The constexpr a kernel takes beside parameter `param` (an emitter name, p_<i>) where an
    expression raises to it: the launcher's reading of its value (_pow_form)."""
    return f"{param.upper()}_FORM"


def pow_params(exprs: list[ir.E]) -> set[str]:
    """The spec names of the parameters the expressions raise to (powp, powpa)."""
    found: set[str] = set()

    def walk(x: ir.E) -> None:
        if isinstance(x, ir.Apply):
            if x.fn == "powf" and _pow_helper(x) != "powf":
                found.add(x.args[1].name)  # type: ignore[union-attr]
            for a in x.args:
                walk(a)

    for e in exprs:
        walk(e)
    return found


# Functions the compiler runs exactly in a narrower type: applied to a 16-bit load widened to
# float32 it may narrow them to packed 16-bit instructions on pairs of loads (see _rg_f32).
_NARROWED = {"abs", "neg", *functions.COMPARISONS}


def narrowed(exprs: list[ir.E], floats: set[str]) -> bool:
    """Whether an expression applies a function the compiler may narrow (_NARROWED) to a float input
    itself (`floats`, the spec's names: an integer input never loads as 16-bit floats); a power of
    abs(x) to a parameter (powpa) does not count: at the parameter's value 2, the case it is shaped
    for, its helper squares x itself, with no abs."""

    def walk(x: ir.E) -> bool:
        if not isinstance(x, ir.Apply):
            return False
        if x.fn == "powf" and _pow_helper(x) == "powpa":
            return walk(x.args[0].args[0]) or walk(x.args[1])  # type: ignore[union-attr]
        if x.fn in _NARROWED and any(isinstance(a, ir.Ref) and a.kind == "input" and a.name in floats
                                     for a in x.args):
            return True
        return any(walk(a) for a in x.args)

    return any(walk(e) for e in exprs)


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
