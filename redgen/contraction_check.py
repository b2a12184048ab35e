"""Stage 2 for contractions: syntax tree -> ir.Contraction.

A contraction is a reduction over an axis that two inputs share:

    in   a[M, K] : bf16 | f16 | f32
    in   b[K, N] : like a              # or w[N, K]: torch's linear weight
    out  c[M, N] : like a
    reduce K: c = sum(a * b)           # or `reduce K: s = sum(a * b)` then `c = s + bias`

The checker is the reduction checker (check._Checker) with three rules changed:
inputs may bring axes of their own (a's M, b's N), the one reduce statement must
be `sum(<input> * <input>)` over their shared axis, and the output is
[batch?, M, N], computed from the sum by an element-wise epilogue that may read
inputs whose axes are among the output's (addmm's bias[N]).
"""

from __future__ import annotations

import hashlib

from redgen import errors as err
from redgen import ir
from redgen import syntax as S
from redgen.check import _Checker
from redgen.errors import did_you_mean


def _product(st: S.Stmt) -> tuple[S.Name, S.Name] | None:
    if isinstance(st, S.ReduceStmt) and isinstance(st.expr, S.BinOp) and st.expr.op == "*":
        a, b = st.expr.a, st.expr.b
        if isinstance(a, S.Name) and isinstance(b, S.Name):
            return a, b
    return None


def is_contraction(spec: S.Spec) -> bool:
    """A reduce statement multiplies two inputs, each with an axis the other lacks."""
    axes = {st.name.text: {t.text for t in st.axes} for st in spec.stmts if isinstance(st, S.InputDecl)}
    for st in spec.stmts:
        pair = _product(st)
        if pair and pair[0].id in axes and pair[1].id in axes:
            a, b = axes[pair[0].id], axes[pair[1].id]
            if a - b and b - a:
                return True
    return False


class _ContractionChecker(_Checker):
    def __init__(self, spec: S.Spec):
        super().__init__(spec)
        self._axes: list[str] = []
        self.pair: tuple[str, str] | None = None
        self.sum_name: str | None = None
        self.sum_loc = None

    @property
    def axes(self) -> tuple[str, ...]:
        return tuple(self._axes)

    def st_ShortStmt(self, st: S.ShortStmt):  # noqa: N802 - dispatched by statement class name
        self.fail(err.BadShort, "'short' is for reductions; a contraction's order is its split of K", st.pos)

    def st_TuneStmt(self, st: S.TuneStmt):  # noqa: N802 - dispatched by statement class name
        self.fail(err.BadTune, "'tune' sets launch knobs of a reduction spec's launcher; a contraction's "
                  "launcher is not tuned from its spec", st.pos)

    def st_InputDecl(self, st: S.InputDecl):  # noqa: N802 - dispatched by statement class name
        seen: set[str] = set()
        if st.name.text in {a.text for a in st.axes}:
            self.fail(err.DuplicateName, f"input '{st.name.text}' has the name of one of its axes", st.name.pos)
        for a in st.axes:
            if a.text in seen:
                self.fail(err.BadAxis, f"axis '{a.text}' appears twice in '{st.name.text}'", a.pos)
            seen.add(a.text)
            if a.text in self.names:
                self.fail(err.DuplicateName, f"axis '{a.text}' has the name of a declared value", a.pos)
        self.declare(st.name, "input")
        dtypes = self.like_dtypes(st.like) if st.like else tuple(self.dtype(t) for t in st.dtypes)
        for a in st.axes:
            if a.text not in self._axes:
                self._axes.append(a.text)
        self.inputs.append(ir.Input(st.name.text, tuple(a.text for a in st.axes), dtypes, self.loc(st.pos)))

    def st_ReduceStmt(self, st: S.ReduceStmt):  # noqa: N802 - dispatched by statement class name
        if st.extra:  # `(a, b) = ...` binds several results: only softmax_stats has them
            self.fail(err.BadArity, f"'{st.combiner.text}' here gives one result: bind one name, not "
                      f"{1 + len(st.extra)}", st.name.pos)
        if self.reductions:
            self.fail(err.BadExpr, "a contraction has one reduce statement (the product's sum); write the rest "
                      "as an element-wise epilogue", st.pos)
        pair = _product(st)
        if pair is None or self.names.get(pair[0].id) != "input" or self.names.get(pair[1].id) != "input":
            self.fail(err.BadExpr, "a contraction reduces the product of two inputs: 'sum(a * b)'", st.expr.pos)
        if st.combiner.text != "sum":
            self.fail(err.UnknownCombiner, f"a contraction sums its products: '{st.combiner.text}' is not 'sum'",
                      st.combiner.pos)
        a, b = (self._input(p.id) for p in pair)
        axis = st.axis.text
        if axis not in a.axes or axis not in b.axes:
            self.fail(err.BadAxis, f"the contracted axis '{axis}' must be an axis of both '{a.name}' "
                      f"[{', '.join(a.axes)}] and '{b.name}' [{', '.join(b.axes)}]"
                      + did_you_mean(axis, sorted(set(a.axes) & set(b.axes))), st.axis.pos)
        self.pair = (a.name, b.name)
        name = st.name.text
        if self.names.get(name) == "output":
            # `reduce K: c = sum(a * b)`: the output is the sum itself.
            self.out_exprs[name] = (ir.Ref("reduce", name), self.loc(st.pos))
        else:
            self.declare(st.name, "reduce")
        self.sum_name, self.sum_loc = name, self.loc(st.pos)
        prod = ir.Apply("mul", (ir.Ref("input", a.name), ir.Ref("input", b.name)))
        self.reductions.append(ir.Reduction(name, axis, "sum", prod, 0, self.loc(st.pos)))

    def st_AssignStmt(self, st: S.AssignStmt):  # noqa: N802 - dispatched by statement class name
        if self.names.get(st.name.text) != "output":
            self.fail(err.BadExpr, "a contraction's epilogue is its output's expression: assign the output "
                      f"directly ('{st.name.text}' is not an output)", st.name.pos)
        if not self.reductions:
            self.fail(err.MissingDecl, "the 'reduce' statement of a contraction comes before its epilogue",
                      st.pos)
        if st.name.text in self.out_exprs:
            self.fail(err.DuplicateName, f"output '{st.name.text}' is assigned twice", st.name.pos)
        self.out_exprs[st.name.text] = (self.expr(st.expr), self.loc(st.pos))

    def st_LayoutStmt(self, st: S.LayoutStmt):  # noqa: N802 - dispatched by statement class name
        self.fail(err.BadLayout, "a contraction takes its layout from the input strides; 'layout' is for "
                  "reductions", st.pos)

    def _input(self, name: str) -> ir.Input:
        return next(i for i in self.inputs if i.name == name)

    def finish(self) -> ir.Contraction:
        name_pos = self.spec.name.pos
        if not self.out_decls:
            self.fail(err.MissingDecl, f"op '{self.spec.name.text}' declares no output ('out c[M, N] : like a')",
                      name_pos)
        if self.pair is None:
            self.fail(err.MissingDecl, f"op '{self.spec.name.text}' has no 'reduce K: c = sum(a * b)'", name_pos)
        a, b = (self._input(n) for n in self.pair)
        k = self.reductions[0].axis
        where = self.reductions[0].loc
        batch = None
        if len(a.axes) == 3 and len(b.axes) == 3 and a.axes[0] == b.axes[0] and k != a.axes[0]:
            batch = a.axes[0]
        rest_a = a.axes[1:] if batch else a.axes
        rest_b = b.axes[1:] if batch else b.axes
        if len(rest_a) != 2 or rest_a[1] != k:
            raise err.BadAxis(f"'{a.name}[{', '.join(a.axes)}]' must be [M, {k}] or [B, M, {k}] (a leading batch "
                              f"axis shared with '{b.name}'): the contracted axis last", where, self.spec.source)
        if len(rest_b) != 2 or k not in rest_b:
            raise err.BadAxis(f"'{b.name}[{', '.join(b.axes)}]' must be [{k}, N] or [N, {k}] (with the same "
                              f"leading batch axis as '{a.name}', if any)", where, self.spec.source)
        m = rest_a[0]
        n = rest_b[1] if rest_b[0] == k else rest_b[0]
        if n == m:
            raise err.BadAxis(f"'{a.name}' and '{b.name}' share the axis '{m}' besides '{k}': a contraction "
                              f"keeps one free axis of each", where, self.spec.source)
        out_axes = ((batch,) if batch else ()) + (m, n)
        if len(self.out_decls) != 1:
            self.fail(err.BadOutput, "a contraction has one output", self.out_decls[1].pos)
        d = self.out_decls[0]
        got = tuple(t.text for t in d.axes)
        if got != out_axes:
            self.fail(err.BadOutput, f"output '{d.name.text}[{', '.join(got)}]' must be "
                      f"[{', '.join(out_axes)}]: the free axes of '{a.name}' and '{b.name}'", d.pos)
        if d.name.text not in self.out_exprs:
            self.fail(err.BadOutput, f"output '{d.name.text}' is never assigned ('{d.name.text} = ...')", d.pos)
        if not d.like and d.dtype.text not in ir.DTYPES:
            self.fail(err.DtypeMismatch, f"output '{d.name.text}' of a contraction is a float "
                      f"({', '.join(ir.DTYPES)}) or 'like' an input", d.dtype.pos)
        if b.dtypes != a.dtypes:
            raise err.DtypeMismatch(f"'{b.name}' must allow the dtypes of '{a.name}' ({' | '.join(a.dtypes)}): "
                                    f"write ': like {a.name}'", b.loc, self.spec.source)
        epilogue = tuple(i for i in self.inputs if i.name not in self.pair)
        for i in epilogue:
            if m not in i.axes and n not in i.axes:
                raise err.BadAxis(f"'{i.name}[{', '.join(i.axes)}]' is read by the epilogue: it needs the axis "
                                  f"'{m}' or '{n}' (a scalar is a 'param')", i.loc, self.spec.source)
            if not set(i.axes) <= set(out_axes) or list(i.axes) != [x for x in out_axes if x in i.axes]:
                raise err.BadAxis(f"'{i.name}[{', '.join(i.axes)}]' is read by the epilogue: its axes must be "
                                  f"among the output's [{', '.join(out_axes)}], in that order", i.loc,
                                  self.spec.source)
        expr, loc = self.out_exprs[d.name.text]
        sizes = {r.name for r in ir.refs(expr) if r.kind == "size"}
        if sizes:
            raise err.BadExpr(f"the epilogue reads the axis size {sorted(sizes)[0]}: an output may not depend "
                              f"on a batch size", loc, self.spec.source)
        for r in ir.refs(expr):
            if r.kind == "input" and r.name in self.pair:
                raise err.BadExpr(f"the epilogue reads '{r.name}' element-wise: only the sum and inputs over "
                                  f"the output's axes can be read after the contraction", loc, self.spec.source)
        output = ir.Output(d.name.text, got, d.dtype.text if d.like else None, None if d.like else d.dtype.text,
                           expr, loc)
        schedule = ir.Schedule(
            tiles=tuple(sorted(self.tiles.items())), split=self.split, cores=self.cores, warps=self.warps,
            innermost=None, locs=tuple(sorted(self.locs.items())),
        )
        return ir.Contraction(
            name=self.spec.name.text, path=self.spec.path, source=self.spec.source,
            digest=hashlib.sha256(self.spec.source.encode()).hexdigest(),
            a=a, b=b, epilogue=epilogue, params=tuple(self.params), batch=batch, m=m, n=n, k=k,
            b_nk=rest_b[1] == k, acc=self.acc or "f32", sum_name=self.sum_name, sum_loc=self.sum_loc,
            output=output, schedule=schedule,
        )


def check_contraction(spec: S.Spec) -> ir.Contraction:
    """Resolve and type-check a contraction spec; raises a RedgenError subclass."""
    return _ContractionChecker(spec).run()
