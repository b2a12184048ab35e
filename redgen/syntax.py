"""The syntax tree of a .red spec: what was written, where, nothing resolved.

Nodes are frozen dataclasses; every node and every name token carries its
1-based (line, col) so the checker can point at the exact offending token.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    line: int
    col: int


@dataclass(frozen=True)
class Tok:
    """A name as written, with its position."""

    text: str
    pos: Pos


# --- expressions -------------------------------------------------------------
@dataclass(frozen=True)
class Num:
    text: str
    pos: Pos

    @property
    def value(self) -> float | int:
        return int(self.text) if self.text.isdigit() else float(self.text)


@dataclass(frozen=True)
class Name:
    id: str
    pos: Pos


@dataclass(frozen=True)
class BinOp:
    op: str  # one of + - * /
    a: Expr
    b: Expr
    pos: Pos


@dataclass(frozen=True)
class Compare:
    op: str  # one of < <= > >= == !=
    a: Expr
    b: Expr
    pos: Pos


@dataclass(frozen=True)
class Pow:
    a: Expr
    b: Expr
    pos: Pos


@dataclass(frozen=True)
class Gather:
    """`x[t]`: the element of input x at the reduce-axis position given by integer input t."""

    base: Tok
    index: Expr
    pos: Pos


@dataclass(frozen=True)
class Neg:
    a: Expr
    pos: Pos


@dataclass(frozen=True)
class Call:
    fn: Tok
    args: tuple[Expr, ...]
    pos: Pos


Expr = Num | Name | BinOp | Neg | Call | Compare | Pow | Gather


# --- statements --------------------------------------------------------------
@dataclass(frozen=True)
class InputDecl:
    name: Tok
    axes: tuple[Tok, ...]
    dtypes: tuple[Tok, ...]
    pos: Pos
    like: Tok | None = None  # `: like a` (dtypes then empty): the dtype follows input `a`


@dataclass(frozen=True)
class ParamDecl:
    name: Tok
    default: Expr
    pos: Pos


@dataclass(frozen=True)
class OutputDecl:
    name: Tok
    axes: tuple[Tok, ...]
    like: bool  # True: dtype follows the input named by `dtype`
    dtype: Tok
    pos: Pos


@dataclass(frozen=True)
class AccDecl:
    dtype: Tok
    pos: Pos


@dataclass(frozen=True)
class ReduceStmt:
    axis: Tok
    name: Tok
    combiner: Tok
    expr: Expr
    pos: Pos
    more: tuple[Expr, ...] = ()  # further arguments (attention's softmax_sum(s, v))
    # Further names bound, `(m, s) = softmax_stats(x)`: name is m, extra (s,). A bare
    # name and a one-name tuple cannot be told apart by the checker, so the grammar
    # requires two or more names in parentheses.
    extra: tuple[Tok, ...] = ()
    # `reduce N1, N2 as N`: the axes after the first (N2) and the merged axis' name (N).
    more_axes: tuple[Tok, ...] = ()
    merged: Tok | None = None


@dataclass(frozen=True)
class AssignStmt:
    name: Tok
    expr: Expr
    pos: Pos


@dataclass(frozen=True)
class LayoutStmt:
    axis: Tok
    pos: Pos


@dataclass(frozen=True)
class TileItem:
    axis: Tok
    size: Expr
    pos: Pos


@dataclass(frozen=True)
class TileStmt:
    items: tuple[TileItem, ...]
    pos: Pos


@dataclass(frozen=True)
class SplitStmt:
    axis: Tok
    kind: Tok  # fixed_size | fixed_count | none
    value: Expr | None  # None for `split <axis> none`
    pos: Pos


@dataclass(frozen=True)
class CoresStmt:
    value: Expr  # a Name 'auto' or an integer expression
    pos: Pos


@dataclass(frozen=True)
class WarpsStmt:
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class TuneStmt:
    """`tune cuda ROW_ACROSS_PAD = 4096`: one of a target's launcher knobs, set for this op."""

    target: Tok
    knob: Tok
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class ShortStmt:
    """`short N <= 8192 : softmax_held`: rows of at most that many elements run another op."""

    axis: Tok
    cmp: Tok
    bound: Expr
    op: Tok
    pos: Pos


# --- attention (redgen/attention.py) ---
@dataclass(frozen=True)
class MaskStmt:
    kind: Tok  # causal | none
    pos: Pos


@dataclass(frozen=True)
class GroupStmt:
    heads: Tok  # the query head axis
    kv_heads: Tok  # the KV head axis
    pos: Pos


Stmt = (
    InputDecl | ParamDecl | OutputDecl | AccDecl | ReduceStmt | AssignStmt
    | LayoutStmt | TileStmt | SplitStmt | CoresStmt | WarpsStmt | MaskStmt | GroupStmt
)


@dataclass(frozen=True)
class Spec:
    """A parsed spec file."""

    path: str
    source: str
    name: Tok
    stmts: tuple[Stmt, ...]
