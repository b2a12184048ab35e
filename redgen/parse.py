"""Stage 1: .red text -> syntax tree (redgen.syntax), positions kept."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import syntax as S
from .errors import Loc, SyntaxError_, UnexpectedEnd

GRAMMAR = Path(__file__).with_name("grammar.lark")

# What a user meant, for the terminals Lark names in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "_NL": "end of line", "COLON": "':'",
    "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "EQUAL": "'='",
    "COMMA": "','", "VBAR": "'|'", "SPLIT_KIND": "'fixed_size' or 'fixed_count'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True)


def _pos(x: Token | Tree) -> S.Pos:
    if isinstance(x, Token):
        return S.Pos(x.line, x.column)
    return S.Pos(x.meta.line, x.meta.column)


def _tok(t: Token) -> S.Tok:
    return S.Tok(str(t), _pos(t))


@v_args(meta=True)
class _ToSyntax(Transformer):
    """Maps grammar rules one-to-one onto syntax dataclasses."""

    def _p(self, meta) -> S.Pos:
        return S.Pos(meta.line, meta.column)

    # expressions
    def number(self, meta, c):
        return S.Num(str(c[0]), self._p(meta))

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

    def param_decl(self, meta, c):
        return S.ParamDecl(_tok(c[0]), c[1], self._p(meta))

    def output_decl(self, meta, c):
        like, dtype = c[2]
        return S.OutputDecl(_tok(c[0]), c[1] or (), like, dtype, self._p(meta))

    def acc_decl(self, meta, c):
        return S.AccDecl(_tok(c[0]), self._p(meta))

    def reduce_stmt(self, meta, c):
        return S.ReduceStmt(_tok(c[0]), _tok(c[1]), _tok(c[2]), c[3], self._p(meta))

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
    text = source if source.endswith("\n") else source + "\n"
    try:
        tree = _parser().parse(text)
    except UnexpectedEOF as err:
        last = len(source.splitlines()) or 1
        raise UnexpectedEnd(f"the spec ends in the middle of a statement{_expected(err)}",
                            Loc(path, last, 1), source) from None
    except UnexpectedCharacters as err:
        ch = source.splitlines()[err.line - 1][err.column - 1 : err.column]
        raise SyntaxError_(f"unexpected character {ch!r}", Loc(path, err.line, err.column), source) from None
    except UnexpectedToken as err:
        tok = err.token
        if tok.type == "$END":
            last = len(source.splitlines()) or 1
            raise UnexpectedEnd(f"the spec ends in the middle of a statement{_expected(err)}",
                                Loc(path, last, 1), source) from None
        shown = "end of line" if tok.type == "_NL" else repr(str(tok))
        raise SyntaxError_(f"unexpected {shown}{_expected(err)}",
                           Loc(path, tok.line, tok.column), source) from None
    op_name = tree.children[0]
    stmts = tree.children[1:]
    spec_tree = _ToSyntax().transform(Tree("start", [op_name, *stmts]))
    name, *body = spec_tree.children
    return S.Spec(path=path, source=source, name=name, stmts=tuple(body))


def parse_file(path: str | Path) -> S.Spec:
    p = Path(path)
    return parse(p.read_text(), str(p))
