"""The parser: statement kinds, comments, blank lines, precedence, positions."""

from __future__ import annotations

import pytest

from redgen import syntax as syn
from redgen.errors import SyntaxError_, UnexpectedEnd
from redgen.parse import parse

FULL = """\
# a comment before the op
op softmaxish   # trailing comment

in    x[M, N, K] : f32 | f16 | bf16
in    w[N] : f32
param eps = 1e-6
out   y[M, K] : like x
out   z[M, K] : f32
acc   f32
reduce N: m = max(x)
d = x - m
reduce N: s = sum(exp(d) * w)
y = log(s) + m
z = s / N + eps
   # an indented comment line
layout N innermost
tile   N = 512, K = 16
split  N fixed_size 2048
cores  40
warps  4
"""


def _stmts(src: str):
    return parse(src, "t.red").stmts


def _expr(text: str) -> syn.Expr:
    (st,) = _stmts(f"op t\nv = {text}\n")
    assert isinstance(st, syn.AssignStmt)
    return st.expr


def _show(e: syn.Expr) -> str:
    """Fully parenthesized form, to check precedence and associativity."""
    if isinstance(e, syn.Num):
        return e.text
    if isinstance(e, syn.Name):
        return e.id
    if isinstance(e, syn.Neg):
        return f"(-{_show(e.a)})"
    if isinstance(e, syn.BinOp):
        return f"({_show(e.a)} {e.op} {_show(e.b)})"
    return f"{e.fn.text}({', '.join(_show(a) for a in e.args)})"


def test_every_statement_kind():
    spec = parse(FULL, "full.red")
    assert spec.path == "full.red" and spec.source == FULL
    assert spec.name == syn.Tok("softmaxish", syn.Pos(2, 4))
    kinds = [type(st).__name__ for st in spec.stmts]
    assert kinds == ["InputDecl", "InputDecl", "ParamDecl", "OutputDecl", "OutputDecl", "AccDecl",
                     "ReduceStmt", "AssignStmt", "ReduceStmt", "AssignStmt", "AssignStmt",
                     "LayoutStmt", "TileStmt", "SplitStmt", "CoresStmt", "WarpsStmt"]
    x, w, eps, y, z, acc, r1, d, r2, ya, za, lay, tile, split, cores, warps = spec.stmts
    assert [t.text for t in x.axes] == ["M", "N", "K"] and [t.text for t in x.dtypes] == ["f32", "f16", "bf16"]
    assert [t.text for t in w.axes] == ["N"]
    assert eps.name.text == "eps" and eps.default == syn.Num("1e-6", syn.Pos(6, 13)) and eps.default.value == 1e-6
    assert y.like and y.dtype.text == "x" and [t.text for t in y.axes] == ["M", "K"]
    assert not z.like and z.dtype.text == "f32"
    assert acc.dtype.text == "f32"
    assert (r1.axis.text, r1.name.text, r1.combiner.text, _show(r1.expr)) == ("N", "m", "max", "x")
    assert _show(r2.expr) == "(exp(d) * w)"
    assert d.name.text == "d" and _show(d.expr) == "(x - m)"
    assert _show(ya.expr) == "(log(s) + m)" and _show(za.expr) == "((s / N) + eps)"
    assert lay.axis.text == "N"
    assert [(i.axis.text, _show(i.size)) for i in tile.items] == [("N", "512"), ("K", "16")]
    assert (split.axis.text, split.kind.text, _show(split.value)) == ("N", "fixed_size", "2048")
    assert _show(cores.value) == "40" and _show(warps.value) == "4"


def test_positions_are_one_based_line_and_column():
    spec = parse(FULL, "full.red")
    x, w, eps, y, z, acc, r1, *_ = spec.stmts
    assert x.pos == syn.Pos(4, 1)
    assert x.name.pos == syn.Pos(4, 7)
    assert [t.pos.col for t in x.axes] == [9, 12, 15]
    assert [t.pos for t in x.dtypes] == [syn.Pos(4, 20), syn.Pos(4, 26), syn.Pos(4, 32)]
    assert y.dtype.pos == syn.Pos(7, 22)
    assert r1.pos == syn.Pos(10, 1) and r1.axis.pos == syn.Pos(10, 8)
    assert r1.name.pos == syn.Pos(10, 11) and r1.combiner.pos == syn.Pos(10, 15)
    assert r1.expr.pos == syn.Pos(10, 19)
    tile = spec.stmts[12]
    assert tile.items[1].axis.pos == syn.Pos(17, 17) and tile.items[1].size.pos == syn.Pos(17, 21)


def test_comments_and_blank_lines_anywhere():
    src = "\n\n# header\n\nop t   # the op\n\n\n  # indented comment\nin x[N] : f32  # input\n\n\n"
    spec = parse(src)
    assert spec.name.text == "t" and spec.name.pos == syn.Pos(5, 4)
    (x,) = spec.stmts
    assert x.pos == syn.Pos(9, 1)


def test_no_trailing_newline_and_crlf():
    assert len(_stmts("op t\nin x[N] : f32")) == 1
    spec = parse("op t\r\nin x[N] : f32\r\ny = 1\r\n")
    assert [type(s).__name__ for s in spec.stmts] == ["InputDecl", "AssignStmt"]
    assert spec.stmts[1].pos == syn.Pos(3, 1)


def test_whitespace_and_tabs_between_tokens():
    (st,) = _stmts("op t\nreduce\tN :  s=sum( x )\n")
    assert (st.axis.text, st.name.text, st.combiner.text, _show(st.expr)) == ("N", "s", "sum", "x")


@pytest.mark.parametrize("text, shown", [
    ("a + b * c", "(a + (b * c))"),
    ("a * b + c", "((a * b) + c)"),
    ("a - b - c", "((a - b) - c)"),          # left associative
    ("a / b / c", "((a / b) / c)"),
    ("a - b * c / d", "(a - ((b * c) / d))"),
    ("(a + b) * c", "((a + b) * c)"),
    ("-a * b", "((-a) * b)"),                # unary minus binds tighter than *
    ("a * -b", "(a * (-b))"),
    ("--a", "(-(-a))"),
    ("a - -b", "(a - (-b))"),
    ("exp(a + b) * c", "(exp((a + b)) * c)"),
    ("max(a, b * c)", "max(a, (b * c))"),
    ("f()", "f()"),
    ("cdiv(N, 4) * 2", "(cdiv(N, 4) * 2)"),
])
def test_expression_precedence(text: str, shown: str):
    assert _show(_expr(text)) == shown


@pytest.mark.parametrize("text, value", [
    ("2048", 2048), ("1.5", 1.5), ("1e-6", 1e-6), ("2.", 2.0), (".5", 0.5), ("3E+2", 300.0),
])
def test_numbers(text: str, value):
    e = _expr(text)
    assert isinstance(e, syn.Num) and e.value == value and type(e.value) is type(value)


def test_expression_positions():
    e = _expr("a + b * exp(c)")
    assert e.pos == syn.Pos(2, 5)
    assert e.b.pos == syn.Pos(2, 9)
    call = e.b.b
    assert call.fn.pos == syn.Pos(2, 13) and call.args[0].pos == syn.Pos(2, 17)


def test_split_kinds_and_schedule_expressions():
    (a,) = _stmts("op t\nsplit N fixed_count cores / M\n")
    assert a.kind.text == "fixed_count" and _show(a.value) == "(cores / M)"
    (b,) = _stmts("op t\ncores auto\n")
    assert b.value == syn.Name("auto", syn.Pos(2, 7))


def test_tune_names_a_target_a_knob_and_a_value():
    (st,) = _stmts("op t\ntune cuda ROW_ELEMS = 2 * 128\n")
    assert isinstance(st, syn.TuneStmt) and (st.target.text, st.knob.text) == ("cuda", "ROW_ELEMS")
    assert st.knob.pos == syn.Pos(2, 11) and _show(st.value) == "(2 * 128)"


def test_empty_output_axes():
    (st,) = _stmts("op t\nout y[] : f32\n")
    assert st.axes == ()


@pytest.mark.parametrize("src, line, col, fragment", [
    ("op t\nin x[M N] : f32\n", 2, 8, "unexpected 'N'; expected"),
    ("op t\nsplit N fixed_bogus 4\n", 2, 9, "'fixed_size' or 'fixed_count'"),
    ("op t\ny = 1 +\n", 2, 8, "unexpected end of line"),
    ("op t\ny = $\n", 2, 5, "unexpected character '$'"),
    ("in x[N] : f32\n", 1, 1, "unexpected 'in'; expected 'op'"),
    ("op t u\n", 1, 6, "unexpected 'u'"),
])
def test_syntax_errors_point_at_the_token(src: str, line: int, col: int, fragment: str):
    with pytest.raises(SyntaxError_) as info:
        parse(src, "t.red")
    e = info.value
    assert (e.code, e.loc.line, e.loc.col) == ("E001", line, col)
    assert fragment in e.message
    assert e.render().startswith(f"t.red:{line}:{col}: error[E001]")


@pytest.mark.parametrize("src", ["", "\n\n", "# only a comment\n", "  \n# c\n\n"])
def test_no_op_is_unexpected_end(src: str):
    with pytest.raises(UnexpectedEnd) as info:
        parse(src, "t.red")
    assert info.value.code == "E002" and "expected 'op'" in info.value.message
