"""Stage 1: .red text -> syntax tree (redgen.syntax), positions kept."""

from __future__ import annotations

import math
import os
import stat
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from redgen import syntax as S
from redgen.errors import BadLiteral, BadSpecFile, Loc, SyntaxError_, TooDeep, UnexpectedEnd, source_lines

# Expressions nest at most this deep (parentheses do not count, operators and calls do):
# every later stage walks expressions recursively, and a spec is read by people.
MAX_DEPTH = 100
# Integer literals are sizes, counts and constants: 2**62 leaves room for products in int64.
MAX_INT = 2**62

# Package data (pyproject.toml), read through importlib so that any installed form works.
GRAMMAR = resources.files("redgen") / "grammar.lark"

# What a user meant, for the terminals Lark names in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "_NL": "end of line", "COLON": "':'",
    "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "EQUAL": "'='",
    "COMMA": "','", "VBAR": "'|'", "SPLIT_KIND": "'fixed_size' or 'fixed_count'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True, maybe_placeholders=True)


def _pos(x: Token | Tree) -> S.Pos:
    if isinstance(x, Token):
        return S.Pos(x.line, x.column)
    return S.Pos(x.meta.line, x.meta.column)


def _tok(t: Token) -> S.Tok:
    return S.Tok(str(t), _pos(t))


@v_args(meta=True)
class _ToSyntax(Transformer):
    """Maps grammar rules one-to-one onto syntax dataclasses."""

    def __init__(self, path: str, source: str):
        super().__init__()
        self.path, self.source = path, source

    def _p(self, meta) -> S.Pos:
        return S.Pos(meta.line, meta.column)

    # expressions
    def number(self, meta, c):
        return S.Num(_checked_number(c[0], self.path, self.source), self._p(meta))

    def name(self, meta, c):
        return S.Name(str(c[0]), self._p(meta))

    def call(self, meta, c):
        args = tuple(a for a in c[1:] if a is not None)
        return S.Call(_tok(c[0]), args, self._p(meta))

    def neg(self, meta, c):
        return S.Neg(c[0], self._p(meta))

    def _bin(op):  # noqa: N805 - a rule-method factory, not a method
        def rule(self, meta, c):
            return S.BinOp(op, c[0], c[1], self._p(meta))

        return rule

    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")

    def compare(self, meta, c):
        return S.Compare(str(c[1]), c[0], c[2], self._p(meta))

    def pow(self, meta, c):
        return S.Pow(c[0], c[1], self._p(meta))

    def gather(self, meta, c):
        return S.Gather(_tok(c[0]), c[1], self._p(meta))

    # pieces
    def name_list(self, meta, c):
        return tuple(_tok(t) for t in c)

    dtype_list = name_list

    def like(self, meta, c):
        return (True, _tok(c[0]))

    def fixed(self, meta, c):
        return (False, _tok(c[0]))

    def tile_item(self, meta, c):
        return S.TileItem(_tok(c[0]), c[1], self._p(meta))

    # statements
    def op_decl(self, meta, c):
        return _tok(c[0])

    def input_decl(self, meta, c):
        return S.InputDecl(_tok(c[0]), c[1], c[2], self._p(meta))

    # contractions (see the delimited block in grammar.lark)
    def input_like(self, meta, c):
        return S.InputDecl(_tok(c[0]), c[1], (), self._p(meta), like=_tok(c[2]))

    def split_none(self, meta, c):
        return S.SplitStmt(_tok(c[0]), S.Tok("none", self._p(meta)), None, self._p(meta))

    def param_decl(self, meta, c):
        return S.ParamDecl(_tok(c[0]), c[1], self._p(meta))

    def output_decl(self, meta, c):
        like, dtype = c[2]
        return S.OutputDecl(_tok(c[0]), c[1] or (), like, dtype, self._p(meta))

    def acc_decl(self, meta, c):
        return S.AccDecl(_tok(c[0]), self._p(meta))

    def reduce_axes(self, meta, c):
        return [_tok(t) for t in c[:-1]], (_tok(c[-1]) if c[-1] is not None else None)

    def reduce_stmt(self, meta, c):
        (first, *more_axes), merged = c[0]
        names = c[1]
        return S.ReduceStmt(first, names[0], _tok(c[2]), c[3], self._p(meta), tuple(c[4:]), tuple(names[1:]),
                            tuple(more_axes), merged)

    def one_name(self, meta, c):
        return [_tok(c[0])]

    def name_tuple(self, meta, c):
        return [_tok(t) for t in c]

    def assign_stmt(self, meta, c):
        return S.AssignStmt(_tok(c[0]), c[1], self._p(meta))

    def layout_stmt(self, meta, c):
        return S.LayoutStmt(_tok(c[0]), self._p(meta))

    def tile_stmt(self, meta, c):
        return S.TileStmt(tuple(c), self._p(meta))

    def split_stmt(self, meta, c):
        return S.SplitStmt(_tok(c[0]), _tok(c[1]), c[2], self._p(meta))

    def cores_stmt(self, meta, c):
        return S.CoresStmt(c[0], self._p(meta))

    def warps_stmt(self, meta, c):
        return S.WarpsStmt(c[0], self._p(meta))

    def short_stmt(self, meta, c):
        return S.ShortStmt(_tok(c[0]), _tok(c[1]), c[2], _tok(c[3]), self._p(meta))

    def tune_stmt(self, meta, c):
        return S.TuneStmt(_tok(c[0]), _tok(c[1]), c[2], self._p(meta))

    # --- attention (redgen/attention.py) ---
    def mask_stmt(self, meta, c):
        return S.MaskStmt(_tok(c[0]), self._p(meta))

    def group_stmt(self, meta, c):
        return S.GroupStmt(_tok(c[0]), _tok(c[1]), self._p(meta))


def _checked_number(tok: Token, path: str, source: str) -> str:
    """The literal's text, once it is known to be a value redgen can carry (BadLiteral if not)."""
    text = str(tok)
    loc = Loc(path, tok.line, tok.column)
    if text.isdigit():
        if len(text) > 19 or int(text) > MAX_INT:
            shown = text if len(text) <= 24 else f"{text[:10]}...{text[-6:]} ({len(text)} digits)"
            raise BadLiteral(f"integer literal {shown} is too large (at most 2**62)", loc, source)
        return text
    value = float(text)
    if not math.isfinite(value):
        raise BadLiteral(f"number {text} overflows a float (the largest is about 1.8e308)", loc, source)
    return text


def _check_depth(tree: Tree, path: str, source: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH, walking iteratively: the transformer and every
    later stage recurse, and would end in a RecursionError."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep(f"expression nested more than {MAX_DEPTH} levels deep (operators and calls "
                          f"count); split it with intermediate names", Loc(path, getattr(node.meta, "line", 1), getattr(node.meta, "column", 1)),
                          source)
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))


def _expected(err: UnexpectedInput) -> str:
    names = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    words = sorted({_TERMINAL_WORDS.get(n, repr(n.lower()) if n.isupper() else repr(n)) for n in names})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    return "; expected " + ", ".join(words)


def parse(source: str, path: str = "<spec>") -> S.Spec:
    """Parse spec text. Raises SyntaxError_/UnexpectedEnd with file:line:col."""
    # CRLF is a line break (source_lines): the parser sees "\n" alone, so that a comment
    # never swallows the "\r"; columns do not move, as the "\r" ends its line.
    text = source.replace("\r\n", "\n")
    text = text if text.endswith("\n") else text + "\n"
    lines = source_lines(source)
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF as err:
        last = len(lines) or 1
        raise UnexpectedEnd(f"the spec ends in the middle of a statement{_expected(err)}",
                            Loc(path, last, 1), source) from None
    except UnexpectedCharacters as err:
        ch = lines[err.line - 1][err.column - 1 : err.column] if err.line <= len(lines) else text[err.pos_in_stream]
        raise SyntaxError_(f"unexpected character {ch!r}", Loc(path, err.line, err.column), source) from None
    except UnexpectedToken as err:
        tok = err.token
        if tok.type == "$END":
            last = len(lines) or 1
            raise UnexpectedEnd(f"the spec ends in the middle of a statement{_expected(err)}",
                                Loc(path, last, 1), source) from None
        shown = "end of line" if tok.type == "_NL" else repr(str(tok))
        raise SyntaxError_(f"unexpected {shown}{_expected(err)}",
                           Loc(path, tok.line, tok.column), source) from None
    _check_depth(tree, path, source)
    op_name = tree.children[0]
    stmts = tree.children[1:]
    try:
        spec_tree = _ToSyntax(path, source).transform(Tree("start", [op_name, *stmts]))
    except VisitError as err:  # Lark wraps what a rule raises: a BadLiteral is ours to report
        if isinstance(err.orig_exc, BadLiteral):
            raise err.orig_exc from None
        raise
    name, *body = spec_tree.children
    return S.Spec(path=path, source=source, name=name, stmts=tuple(body))


def read_spec(path: str | Path) -> str:
    """The text of a spec file; BadSpecFile (naming the path) for anything but a readable
    UTF-8 regular file. A FIFO or device is refused before it is opened, so nothing blocks."""
    p = Path(path)
    loc = Loc(str(p), 1, 1)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise BadSpecFile(f"no such spec file: '{p}'", loc) from None
    except OSError as e:
        raise BadSpecFile(f"cannot read spec '{p}': {e.strerror or e}", loc) from None
    if stat.S_ISDIR(st.st_mode):
        raise BadSpecFile(f"'{p}' is a directory, not a spec file", loc)
    if not stat.S_ISREG(st.st_mode):
        raise BadSpecFile(f"'{p}' is not a regular file (a FIFO, socket or device); a spec is a text file",
                          loc)
    try:
        with open(p, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadSpecFile(f"cannot read spec '{p}': {e.strerror or e}", loc) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise BadSpecFile(f"'{p}' is not UTF-8 text: byte 0x{data[e.start]:02x} at line {line}, byte {col} "
                          f"cannot be decoded", Loc(str(p), line, col)) from None


def parse_file(path: str | Path) -> S.Spec:
    return parse(read_spec(path), str(Path(path)))
