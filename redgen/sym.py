"""Integer expressions over shape symbols: the language of a plan.

Every schedule value that depends on a shape (grid, number of chunks, chunk
length) is one of these, not a Python int, so the verifier can ask which
symbols it depends on, z3 can reason about it, and the launcher is printed
from the very same expression.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


class SExpr:
    """Base of the symbolic integer expression nodes."""

    def free(self) -> frozenset[str]:
        raise TypeError(type(self).__name__)

    def eval(self, env: Mapping[str, int]) -> int:
        raise TypeError(type(self).__name__)

    def py(self, names: Mapping[str, str]) -> str:
        raise TypeError(type(self).__name__)

    def z3(self, syms: Mapping[str, object]):
        raise TypeError(type(self).__name__)

    def is_const(self) -> bool:
        return not self.free()


@dataclass(frozen=True)
class Const(SExpr):
    value: int

    def free(self) -> frozenset[str]:
        return frozenset()

    def eval(self, env: Mapping[str, int]) -> int:
        return self.value

    def py(self, names: Mapping[str, str]) -> str:
        return str(self.value)

    def z3(self, syms: Mapping[str, object]):
        return self.value

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Sym(SExpr):
    name: str

    def free(self) -> frozenset[str]:
        return frozenset({self.name})

    def eval(self, env: Mapping[str, int]) -> int:
        return int(env[self.name])

    def py(self, names: Mapping[str, str]) -> str:
        return names[self.name]

    def z3(self, syms: Mapping[str, object]):
        return syms[self.name]

    def __str__(self) -> str:
        return self.name


def _z3_floordiv(a, b):
    """Python's a // b (floor division), exactly. z3's integer '/' is Euclidean (the
    remainder is never negative): equal to floor for b > 0, but for b < 0 floor(a / b) is
    (-a) / (-b), Euclidean. A zero divisor is refused before any expression reaches z3
    (`divisors` + verify's check), so the value z3 gives it (0 here) is never used."""
    import z3

    if isinstance(b, int):
        if isinstance(a, int):
            return a // b if b else 0
        return a / b if b > 0 else ((-a) / (-b) if b < 0 else z3.IntVal(0))
    return z3.If(b > 0, a / b, z3.If(b < 0, (-a) / (-b), 0))


def _z3_cdiv(a, b):
    # -(-a // b), as the launcher computes it: the floor division above, not (a + b - 1) / b.
    return -_z3_floordiv(-a, b)


def _z3_min(a, b):
    import z3

    return z3.If(a <= b, a, b)


def _z3_max(a, b):
    import z3

    return z3.If(a >= b, a, b)


# kind -> (python evaluation, python source format, infix symbol for str, z3 builder)
_OPS: dict[str, tuple[Callable[[int, int], int], str, str, Callable]] = {
    "add": (lambda a, b: a + b, "({a} + {b})", "+", lambda a, b: a + b),
    "sub": (lambda a, b: a - b, "({a} - {b})", "-", lambda a, b: a - b),
    "mul": (lambda a, b: a * b, "({a} * {b})", "*", lambda a, b: a * b),
    "floordiv": (lambda a, b: a // b, "({a} // {b})", "/", _z3_floordiv),
    # Printed as the very expression evaluated (not triton.cdiv, which is (a + b - 1) // b
    # and differs from it for a negative divisor).
    "cdiv": (lambda a, b: -(-a // b), "(-(-{a} // {b}))", "cdiv", _z3_cdiv),
    "min": (min, "min({a}, {b})", "min", _z3_min),
    "max": (max, "max({a}, {b})", "max", _z3_max),
}


@dataclass(frozen=True)
class Bin(SExpr):
    kind: str
    a: SExpr
    b: SExpr

    def free(self) -> frozenset[str]:
        return self.a.free() | self.b.free()

    def eval(self, env: Mapping[str, int]) -> int:
        a, b = self.a.eval(env), self.b.eval(env)
        if self.kind in ("floordiv", "cdiv") and b == 0:
            raise ZeroDivisionError(f"division by zero in {self}")
        return _OPS[self.kind][0](a, b)

    def py(self, names: Mapping[str, str]) -> str:
        return _OPS[self.kind][1].format(a=self.a.py(names), b=self.b.py(names))

    def z3(self, syms: Mapping[str, object]):
        return _OPS[self.kind][3](self.a.z3(syms), self.b.z3(syms))

    def __str__(self) -> str:
        sym = _OPS[self.kind][2]
        if sym.isalpha():
            return f"{sym}({self.a}, {self.b})"
        return f"({self.a} {sym} {self.b})"


def divisors(e: SExpr) -> list[SExpr]:
    """Every divisor in `e` (of floordiv and cdiv), outermost first."""
    if not isinstance(e, Bin):
        return []
    own = [e.b] if e.kind in ("floordiv", "cdiv") else []
    return own + divisors(e.a) + divisors(e.b)


def const(v: int) -> Const:
    return Const(int(v))


def _fold(kind: str, a: SExpr, b: SExpr) -> SExpr:
    if isinstance(a, Const) and isinstance(b, Const):
        return Const(Bin(kind, a, b).eval({}))
    return Bin(kind, a, b)


def add(a: SExpr, b: SExpr) -> SExpr:
    return _fold("add", a, b)


def sub(a: SExpr, b: SExpr) -> SExpr:
    return _fold("sub", a, b)


def mul(a: SExpr, b: SExpr) -> SExpr:
    return _fold("mul", a, b)


def floordiv(a: SExpr, b: SExpr) -> SExpr:
    return _fold("floordiv", a, b)


def cdiv(a: SExpr, b: SExpr) -> SExpr:
    return _fold("cdiv", a, b)


def smin(a: SExpr, b: SExpr) -> SExpr:
    return _fold("min", a, b)


def smax(a: SExpr, b: SExpr) -> SExpr:
    return _fold("max", a, b)
