"""The element-wise functions and operators of the spec language, in one table.

Every reader takes its facts from here: the checker (names, arity, where a value of
each kind may go, which targets have it), the emitter (the Triton source), the
constant folding of parameter defaults, and the tests' float64 reference
(`reference`), so that adding a function is one entry.

A function renders either as an inline Triton expression or as a call to a small
`@triton.jit` helper the module defines once (templates/common/macros.j2,
`helpers`): helpers keep an argument that is used twice from being rendered twice.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Function:
    name: str
    arity: int
    triton: str  # format string over the rendered arguments {0}, {1}, ...
    fold: Callable[..., float]  # Python float value (parameter defaults)
    doc: str
    helper: str | None = None  # the module-level helper it calls (emitted when used)


def _sigmoid(a: float) -> float:
    return 1.0 / (1.0 + math.exp(-a)) if a > -700 else 0.0


def _powf(a: float, b: float) -> float:
    return math.exp(b * math.log(a))


FUNCTIONS: dict[str, Function] = {f.name: f for f in (
    Function("exp", 1, "_rg_exp({0})", math.exp, "e to the power x"),
    Function("log", 1, "tl.log({0})", math.log, "natural logarithm"),
    Function("sqrt", 1, "tl.sqrt({0})", math.sqrt, "square root"),
    Function("rsqrt", 1, "tl.rsqrt({0})", lambda a: 1.0 / math.sqrt(a), "1 / sqrt(x)"),
    Function("abs", 1, "tl.abs({0})", abs, "absolute value"),
    Function("max", 2, "tl.maximum({0}, {1})", max, "the larger of two values"),
    Function("min", 2, "tl.minimum({0}, {1})", min, "the smaller of two values"),
    Function("tanh", 1, "_rg_tanh({0})", math.tanh, "hyperbolic tangent", helper="tanh"),
    Function("sigmoid", 1, "_rg_sigmoid({0})", _sigmoid, "1 / (1 + exp(-x))", helper="sigmoid"),
    Function("silu", 1, "_rg_silu({0})", lambda a: a * _sigmoid(a), "x * sigmoid(x)", helper="silu"),
    Function("erf", 1, "tl.erf({0})", math.erf, "the error function"),
    Function("where", 3, "tl.where({0}, {1}, {2})", lambda c, a, b: a if c else b,
             "where(cond, a, b): a where cond holds (is nonzero), else b; a select, not a product"),
)}

# Comparisons: true/false as a `where` condition; 1.0/0.0 anywhere else (so that
# `sum(x > 0)` counts). ir.Apply fn name -> (spec operator, Triton operator, fold).
COMPARISONS: dict[str, tuple[str, str, Callable[[float, float], bool]]] = {
    "lt": ("<", "<", lambda a, b: a < b), "le": ("<=", "<=", lambda a, b: a <= b),
    "gt": (">", ">", lambda a, b: a > b), "ge": (">=", ">=", lambda a, b: a >= b),
    "eq": ("==", "==", lambda a, b: a == b), "ne": ("!=", "!=", lambda a, b: a != b),
}
CMP_BY_OP = {sym: name for name, (sym, _, _) in COMPARISONS.items()}

# `a ** n` with n an integer literal, |n| <= POWI_MAX: repeated multiplication (x ** 2 is
# exactly x * x, and a negative base is fine); a parameter exponent: exactly a * a at 2 and a at
# 1, else exp(b * log(a)) (redgen/exprs.py, _pow_helper); any other exponent: exp(b * log(a)), so
# a negative base gives NaN, as torch.pow does for a non-integer exponent.
POWI_MAX = 32




def describe(fn: str) -> str:
    return "a non-integer power 'a ** b'" if fn == "pow" else f"{fn}()"


def fold(fn: str, args: list[float]) -> float:
    """The Python value of `fn` (a FUNCTIONS entry, a comparison or pow) on constants."""
    if fn in FUNCTIONS:
        return float(FUNCTIONS[fn].fold(*args))
    if fn in COMPARISONS:
        return 1.0 if COMPARISONS[fn][2](*args) else 0.0
    if fn == "powi":
        return float(args[0] ** int(args[1]))
    if fn == "powf":
        return float(args[0] ** args[1])
    raise KeyError(fn)


def reference(fn: str) -> Callable[..., object]:
    """The float64 torch function for `fn`, for tests' references (torch imported here)."""
    import torch

    table: dict[str, Callable[..., object]] = {
        "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "abs": torch.abs,
        "max": torch.maximum, "min": torch.minimum, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
        "silu": torch.nn.functional.silu, "erf": torch.erf,
        "where": lambda c, a, b: torch.where(c != 0, a, b),
        "powi": torch.pow, "powf": torch.pow,
    }
    for name in COMPARISONS:
        table[name] = (lambda f: lambda a, b: f(torch.as_tensor(a), torch.as_tensor(b)).double())(getattr(torch, name))
    return table[fn]
