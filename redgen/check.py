"""Stage 2: syntax tree -> Op (typed IR). Every semantic error is raised here.

Statements are read in order, so a name must be defined before it is used;
each failure is its own error class (redgen.errors) pointing at the token.
"""

from __future__ import annotations

import hashlib
import math

from redgen import combiners, functions, ir, sym, targets
from redgen import errors as err
from redgen import syntax as S
from redgen.errors import Loc, did_you_mean
from redgen.names import op_name_problem

_OPERATORS = {"+": "add", "-": "sub", "*": "mul", "/": "div"}
_SCHEDULE_OPS = {"+": sym.add, "-": sym.sub, "*": sym.mul, "/": sym.floordiv}
_SCHEDULE_FNS = {"min": sym.smin, "max": sym.smax, "cdiv": sym.cdiv}
_KIND_NOUN = {"input": "an input", "param": "a parameter", "output": "an output", "reduce": "a reduction",
              "local": "a local value", "axis": "an axis"}


class _Checker:
    def __init__(self, spec: S.Spec):
        self.spec = spec
        self.inputs: list[ir.Input] = []
        self.params: list[ir.Param] = []
        self.reductions: list[ir.Reduction] = []
        self.locals: list[ir.Local] = []
        self.out_decls: list[S.OutputDecl] = []
        self.out_exprs: dict[str, tuple[ir.E, Loc]] = {}
        self.acc: str | None = None
        self.names: dict[str, str] = {}  # name -> kind, one namespace for all values
        self.stage_of: dict[str, int] = {}  # reduction/local name -> stage it is available after
        self.local_depth: dict[str, int] = {}  # local name -> length of the chain of locals it ends
        self.tiles: dict[str, sym.SExpr] = {}
        self.split: ir.Split | None = None
        # None until a `cores` line: the budget is the target's (planner), never a default here.
        self.cores: int | None = None
        self.warps: int | None = None
        self.innermost: str | None = None
        self.short: ir.Short | None = None
        self.tunes: list[ir.Tune] = []
        self.locs: dict[str, Loc] = {}
        self.seen: set[type] = set()
        self.size_reads: list[tuple[str, S.Pos]] = []  # axis sizes read by element-wise expressions
        self.calls: list[tuple[str, Loc]] = []
        self.gathers: dict[tuple[str, str], str] = {}  # (input, index input) -> its reduction
        # `reduce N1, N2 as N`: the reduced axes of the first input and the merged axis' name.
        self.reduce_axes: tuple[str, ...] = ()
        self.merged: str | None = None

    # -- helpers ---------------------------------------------------------------
    def loc(self, pos: S.Pos) -> Loc:
        return Loc(self.spec.path, pos.line, pos.col)

    def fail(self, cls: type[err.RedgenError], msg: str, pos: S.Pos):
        raise cls(msg, self.loc(pos), self.spec.source)

    @property
    def axes(self) -> tuple[str, ...]:
        return self.inputs[0].axes if self.inputs else ()

    @property
    def named_axes(self) -> tuple[str, ...]:
        """The axes a statement can name: the first input's, and a merged reduce axis."""
        return self.axes + ((self.merged,) if self.merged else ())

    def _own_axis(self, name: str, pos: S.Pos, what: str) -> None:
        """`name` read by `what`: one of several reduce axes is refused; only the merged length
        is a value of a row (its kernels walk positions of the merged axis)."""
        if name in self.reduce_axes:
            self.fail(err.BadAxis, f"{what} cannot read '{name}', one of the reduce axes merged as "
                      f"'{self.merged}': use the merged length '{self.merged}'", pos)

    def declare(self, tok: S.Tok, kind: str) -> None:
        if tok.text in self.names or tok.text in self.axes:
            what = "an axis" if tok.text in self.axes else _KIND_NOUN[self.names[tok.text]]
            self.fail(err.DuplicateName, f"'{tok.text}' is already {what}", tok.pos)
        self.names[tok.text] = kind

    def dtype(self, tok: S.Tok, allowed=ir.DTYPES) -> str:
        if tok.text not in allowed:
            self.fail(err.BadDtype, f"dtype '{tok.text}' is not one of {', '.join(allowed)}"
                      + did_you_mean(tok.text, allowed), tok.pos)
        return tok.text

    def like_dtypes(self, like: S.Tok) -> tuple[str, ...]:
        """The dtypes of the input named by `: like <input>`."""
        found = [i for i in self.inputs if i.name == like.text]
        if not found:
            self.fail(err.UnknownName, f"'like {like.text}': no input named '{like.text}' declared before"
                      + did_you_mean(like.text, [i.name for i in self.inputs]), like.pos)
        return found[0].dtypes

    def once(self, st, what: str) -> None:
        if type(st) in self.seen:
            self.fail(err.DuplicateName, f"'{what}' is given twice", st.pos)
        self.seen.add(type(st))

    # -- element-wise expressions ----------------------------------------------
    def expr(self, e: S.Expr, int_ok: bool = False) -> ir.E:
        """`e` resolved; int_ok: an integer input may stand here (a comparison operand)."""
        if isinstance(e, S.Num):
            return ir.Lit(float(e.value))
        if isinstance(e, (S.Compare, S.Pow, S.Gather)):
            return self._extended(e)
        if isinstance(e, S.Name):
            if e.id in self.named_axes:
                self._own_axis(e.id, e.pos, "an element-wise expression")
                self.size_reads.append((e.id, e.pos))
                return ir.Ref("size", e.id)
            kind = self.names.get(e.id)
            if kind is None and e.id == "cores":
                self.fail(err.BatchValue, "an expression cannot read the core budget 'cores': it belongs to "
                          "the device, so a row's values would change with the device (cores is for "
                          "schedule statements only)", e.pos)
            if kind is None or kind == "output":
                known = set(self.names) | set(self.axes)
                hint = " (outputs are written, not read)" if kind == "output" else did_you_mean(e.id, known)
                self.fail(err.UnknownName, f"unknown name '{e.id}'{hint}", e.pos)
            if kind == "local" and not self._reads_data(self._local(e.id).expr):
                # A local of sizes, parameters and literals alone (`r = rsqrt(3 / N + eps)`) has no
                # per-row value for a kernel to hold: it is used inline, as written (issue 13).
                inline = self._local(e.id).expr
                size, depth = _size_depth(inline)
                if size > 10_000 or depth > 100:
                    self.fail(err.TooDeep, f"'{e.id}' expands to an expression of {size} nodes nested {depth} "
                              "deep when used inline (it reads no reduction or input); simplify it", e.pos)
                return inline
            if kind == "input" and self._input(e.id).integer and not int_ok:
                self.fail(err.IntegerMisuse, f"'{e.id}' is an integer input ({self._input(e.id).dtypes[0]}): it "
                          f"holds positions along the reduce axis, not values; it can only be a gather index "
                          f"('x[{e.id}]') or compared ('{e.id} == -100')", e.pos)
            if kind == "reduce" and self._reduction(e.id).index:
                comb = self._reduction(e.id).combiner
                self.fail(err.IndexMisuse, f"'{e.id}' is the index {comb} yields, not a value: it can only be "
                          f"assigned as it is to an i64 output ('y = {e.id}')", e.pos)
            return ir.Ref(kind, e.id)
        if isinstance(e, S.Neg):
            return ir.Apply("neg", (self.expr(e.a),))
        if isinstance(e, S.BinOp):
            return ir.Apply(_OPERATORS[e.op], (self.expr(e.a), self.expr(e.b)))
        fn = e.fn.text
        if fn not in ir.FUNCTIONS:
            self.fail(err.UnknownFunction, f"unknown function '{fn}'" + did_you_mean(fn, ir.FUNCTIONS), e.fn.pos)
        if len(e.args) != ir.FUNCTIONS[fn]:
            self.fail(err.BadArity, f"{fn}() takes {ir.FUNCTIONS[fn]} argument(s), got {len(e.args)}", e.fn.pos)
        self.calls.append((fn, self.loc(e.fn.pos)))
        return ir.Apply(fn, tuple(self.expr(a) for a in e.args))

    # -- language extensions (issue 14): comparisons, `**`, gathers ---------------
    def _extended(self, e: S.Compare | S.Pow | S.Gather) -> ir.E:
        if isinstance(e, S.Compare):
            return ir.Apply(functions.CMP_BY_OP[e.op], (self.expr(e.a, True), self.expr(e.b, True)))
        if isinstance(e, S.Pow):
            n = _int_literal(e.b)
            if n == 0:
                self.fail(err.BadExpr, "'** 0' is always 1: write 1", e.b.pos)
            if n is not None and abs(n) <= functions.POWI_MAX:
                return ir.Apply("powi", (self.expr(e.a), ir.Lit(float(n))))
            self.calls.append(("pow", self.loc(e.pos)))
            return ir.Apply("powf", (self.expr(e.a), self.expr(e.b)))
        return self._gather(e)

    def _gather(self, e: S.Gather) -> ir.E:
        """`x[t]` is a reduction: max over the reduce axis of where(position == t, x, -inf).
        Exactly one element (or none: -inf) is selected, so the result is x's element at t
        bit for bit, in any combine order; it runs in the first pass, with no extra memory."""
        base, idx = e.base.text, e.index
        if not self.reductions:
            self.fail(err.BadGather, f"'{base}[...]' gathers along the reduce axis: write it after a 'reduce' "
                      "statement, which names that axis", e.pos)
        axis = self.reductions[0].axis
        if self.names.get(base) != "input" or self._input(base).integer or axis not in self._input(base).axes:
            self.fail(err.BadGather, f"'{base}[...]': only a float input over the reduce axis '{axis}' can be "
                      f"indexed", e.base.pos)
        if not (isinstance(idx, S.Name) and self.names.get(idx.id) == "input" and self._input(idx.id).integer):
            self.fail(err.BadGather, f"the index of '{base}[...]' must be an integer input (declared "
                      f"'in t[...] : i64'), written by its name", idx.pos)
        if axis in self._input(idx.id).axes:
            self.fail(err.BadGather, f"the index '{idx.id}' of '{base}[{idx.id}]' has the reduce axis '{axis}': "
                      "a gather index gives one position per reduced row", idx.pos)
        key = (base, idx.id)
        if key not in self.gathers:
            name = next(f"gather{k}_{base}" for k in range(len(self.names) + 1)
                        if f"gather{k}_{base}" not in self.names and f"gather{k}_{base}" not in self.axes)
            self.names[name] = "reduce"
            self.stage_of[name] = 1
            hit = ir.Apply("eq", (ir.Ref("pos", axis), ir.Ref("input", idx.id)))
            expr = ir.Apply("where", (hit, ir.Ref("input", base), ir.Lit(float("-inf"))))
            self.reductions.append(ir.Reduction(name, axis, "max", expr, 0, self.loc(e.pos)))
            self.gathers[key] = name
        return ir.Ref("reduce", self.gathers[key])

    def _input(self, name: str) -> ir.Input:
        return next(i for i in self.inputs if i.name == name)

    def per_element(self, e: ir.E) -> bool:
        for r in ir.refs(e):
            if r.kind == "input" or (r.kind == "local" and self._local(r.name).per_element):
                return True
        return False

    def stage(self, e: ir.E) -> int:
        """Stage after which every reduction `e` reads is available."""
        return max((self.stage_of[r.name] for r in ir.refs(e) if r.name in self.stage_of), default=0)

    def _local(self, name: str) -> ir.Local:
        return next(v for v in self.locals if v.name == name)

    def _reduction(self, name: str) -> ir.Reduction:
        return next(r for r in self.reductions if name in r.names)

    def _reads_data(self, e: ir.E) -> bool:
        """Whether `e` reads a reduction or an input, through locals."""
        for r in ir.refs(e):
            if r.kind in ("input", "reduce") or (r.kind == "local" and self._reads_data(self._local(r.name).expr)):
                return True
        return False

    def _index_ref(self, e: S.Expr) -> ir.Ref | None:
        """`e` as the bare name of an argmax/argmin reduction, else None."""
        if isinstance(e, S.Name) and self.names.get(e.id) == "reduce":
            if self._reduction(e.id).index:
                return ir.Ref("reduce", e.id)
        return None

    # -- schedule expressions (integers over axis sizes and `cores`) -------------
    def sched(self, e: S.Expr) -> sym.SExpr:
        if isinstance(e, S.Num):
            if not isinstance(e.value, int):
                self.fail(err.BadExpr, f"schedule values are integers, got {e.text}", e.pos)
            return sym.const(e.value)
        if isinstance(e, S.Name):
            if e.id in self.named_axes or e.id == "cores":
                self._own_axis(e.id, e.pos, "a schedule expression")
                return sym.Sym(e.id)
            self.fail(err.UnknownName, f"unknown name '{e.id}' in a schedule expression (axis sizes "
                      f"{', '.join(self.axes)} and 'cores' are allowed)"
                      + did_you_mean(e.id, [*self.axes, "cores"]), e.pos)
        if isinstance(e, S.Neg):
            return sym.sub(sym.const(0), self.sched(e.a))
        if isinstance(e, S.BinOp):
            return self._sched_apply(_SCHEDULE_OPS[e.op], e.op == "/", e.a, e.b, e.pos)
        if isinstance(e, S.Call) and e.fn.text in _SCHEDULE_FNS and len(e.args) == 2:
            return self._sched_apply(_SCHEDULE_FNS[e.fn.text], e.fn.text == "cdiv", *e.args, e.pos)
        self.fail(err.BadExpr, "a schedule expression uses integers, axis sizes, cores, "
                  "+ - * /, min, max and cdiv", e.pos)

    def _sched_apply(self, fn, divides: bool, a: S.Expr, b: S.Expr, pos: S.Pos) -> sym.SExpr:
        sa, sb = self.sched(a), self.sched(b)
        if divides and isinstance(sb, sym.Const) and sb.value == 0:
            self.fail(err.BadExpr, "division by zero in a schedule expression", b.pos)
        try:
            return fn(sa, sb)
        except ZeroDivisionError:  # a divisor that folds to zero
            self.fail(err.BadExpr, "division by zero in a schedule expression", pos)

    def const_int(self, e: S.Expr, what: str, cls: type[err.RedgenError]) -> int:
        v = self.sched(e)
        if not isinstance(v, sym.Const):
            self.fail(cls, f"{what} must be a constant integer, got an expression over "
                      f"{', '.join(sorted(v.free()))}", e.pos)
        return v.value

    # -- statements --------------------------------------------------------------
    def run(self) -> ir.Op:
        for st in self.spec.stmts:
            getattr(self, "st_" + type(st).__name__)(st)
        return self.finish()

    def st_InputDecl(self, st: S.InputDecl):
        seen: set[str] = set()
        if st.name.text in {a.text for a in st.axes}:
            self.fail(err.DuplicateName, f"input '{st.name.text}' has the name of one of its axes", st.name.pos)
        for a in st.axes:
            if a.text in seen:
                self.fail(err.BadAxis, f"axis '{a.text}' appears twice in '{st.name.text}'", a.pos)
            seen.add(a.text)
        if self.inputs:
            extra = [a for a in st.axes if a.text not in self.axes]
            if extra:
                self.fail(err.BadAxis, f"axis '{extra[0].text}' of '{st.name.text}' is not an axis of the "
                          f"first input '{self.inputs[0].name}' ({', '.join(self.axes)})", extra[0].pos)
            order = [self.axes.index(a.text) for a in st.axes]
            if order != sorted(order):
                self.fail(err.BadAxis, f"the axes of '{st.name.text}' must keep the order of "
                          f"'{self.inputs[0].name}' ({', '.join(self.axes)})", st.axes[0].pos)
        self.declare(st.name, "input")
        dtypes = self.like_dtypes(st.like) if st.like else tuple(self.dtype(t, ir.INPUT_DTYPES) for t in st.dtypes)
        ints = [t for t in st.dtypes if t.text in ir.INT_DTYPES] if not st.like else []
        if ints and (len(dtypes) > 1 or not self.inputs):
            what = ("the first input fixes the axes and is reduced: it must be a float input" if not self.inputs
                    else "an integer input has that one dtype")
            self.fail(err.IntegerMisuse, f"'{st.name.text}' is declared {ints[0].text}: {what}", ints[0].pos)
        self.inputs.append(ir.Input(st.name.text, tuple(a.text for a in st.axes), dtypes, self.loc(st.pos)))

    def st_ParamDecl(self, st: S.ParamDecl):
        e = self.expr(st.default)
        if ir.refs(e):
            self.fail(err.BadExpr, f"the default of parameter '{st.name.text}' must be a constant", st.default.pos)
        try:
            value = _fold(e)
        except (ArithmeticError, ValueError):
            self.fail(err.BadExpr, f"the default of parameter '{st.name.text}' cannot be computed "
                      "(division by zero or a value out of the domain of a function)", st.default.pos)
        if not math.isfinite(value):  # a module cannot spell inf/nan as a default (issue 13)
            self.fail(err.BadLiteral, f"the default of parameter '{st.name.text}' is {value}, not a finite "
                      "number", st.default.pos)
        self.declare(st.name, "param")
        self.params.append(ir.Param(st.name.text, value, self.loc(st.pos)))

    def st_OutputDecl(self, st: S.OutputDecl):
        if not self.inputs:
            self.fail(err.MissingDecl, "declare the inputs ('in ...') before the outputs", st.pos)
        for a in st.axes:
            if a.text not in self.axes:
                self.fail(err.UnknownName, f"unknown axis '{a.text}'" + did_you_mean(a.text, self.axes), a.pos)
        if st.like:
            if self.names.get(st.dtype.text) != "input":
                self.fail(err.UnknownName, f"'like {st.dtype.text}': no input named '{st.dtype.text}'"
                          + did_you_mean(st.dtype.text, [i.name for i in self.inputs]), st.dtype.pos)
            if self._input(st.dtype.text).integer:
                self.fail(err.IntegerMisuse, f"'like {st.dtype.text}': '{st.dtype.text}' is an integer input "
                          "(gather positions); give the output a float dtype", st.dtype.pos)
        else:
            self.dtype(st.dtype, ir.OUT_DTYPES)
        self.declare(st.name, "output")
        self.out_decls.append(st)

    def st_AccDecl(self, st: S.AccDecl):
        self.once(st, "acc")
        self.acc = self.dtype(st.dtype, ir.ACC_DTYPES)

    def st_ReduceStmt(self, st: S.ReduceStmt):
        if not self.inputs:
            self.fail(err.MissingDecl, "declare the inputs ('in ...') before a reduction", st.pos)
        axis = self._reduce_axes(st)
        if self.reductions and axis != self.reductions[0].axis:
            self.fail(err.BadAxis, f"every reduction must be over the same axis: '{self.reductions[0].axis}' "
                      f"was reduced before, this one reduces '{axis}'", st.axis.pos)
        if st.combiner.text not in ir.COMBINERS:
            self.fail(err.UnknownCombiner, f"unknown combiner '{st.combiner.text}' (one of "
                      f"{', '.join(ir.COMBINERS)})" + did_you_mean(st.combiner.text, ir.COMBINERS),
                      st.combiner.pos)
        if st.more:
            self.fail(err.BadArity, f"{st.combiner.text}() takes 1 argument, got {1 + len(st.more)}",
                      st.combiner.pos)
        comb = combiners.get(st.combiner.text)
        names = (st.name, *st.extra)
        if len(names) != comb.arity:
            want = ("one name ('s = ...')" if comb.arity == 1
                    else f"{comb.arity} names in parentheses ('({', '.join('ms'[:comb.arity])}) = ...')")
            self.fail(err.BadArity, f"{comb.name}() gives {comb.arity} result(s): bind {want}, not "
                      f"{len(names)}", st.name.pos)
        e = self.expr(st.expr)
        stage = self.stage(e)
        for t in names:
            self.declare(t, "reduce")
            self.stage_of[t.text] = stage + 1
        self.reductions.append(ir.Reduction(st.name.text, axis, st.combiner.text, e, stage, self.loc(st.pos),
                                            tuple(t.text for t in st.extra)))

    def _reduce_axes(self, st: S.ReduceStmt) -> str:
        """The axis `st` reduces: one axis of the first input, or `N1, N2 as N`, two of its axes
        reduced together as the merged axis N (position n1*N2 + n2). Returns N for the latter."""
        axes = (st.axis, *st.more_axes)
        for a in axes:
            if a.text not in self.named_axes:
                self.fail(err.UnknownName, f"unknown axis '{a.text}'" + did_you_mean(a.text, self.axes), a.pos)
        if len(axes) == 1 and st.merged is None:
            return st.axis.text
        if len(axes) == 1:
            self.fail(err.BadAxis, f"'as {st.merged.text}' names the merge of several reduce axes; "
                      f"'{st.axis.text}' is one: write 'reduce {st.axis.text}: ...'", st.merged.pos)
        if st.merged is None:
            self.fail(err.BadAxis, f"several reduce axes are merged into one: name it, "
                      f"'reduce {', '.join(a.text for a in axes)} as N: ...' (N: its length, tile and split)",
                      st.axis.pos)
        if len(axes) > 2:
            self.fail(err.BadAxis, "at most two axes are reduced together (the cuda kernels walk the merged "
                      "axis as two nested axes)", axes[2].pos)
        names = [a.text for a in axes]
        if names[0] == names[1] or self.merged in names:
            self.fail(err.BadAxis, f"'{names[1]}' is named twice", axes[1].pos)
        if self.axes.index(names[0]) > self.axes.index(names[1]):
            self.fail(err.BadAxis, f"reduce axes are listed in the order of '{self.inputs[0].name}' "
                      f"({', '.join(self.axes)}): the first is the outer one of the merged position",
                      axes[0].pos)
        if self.merged is None:
            self.declare(st.merged, "axis")
            self.merged, self.reduce_axes = st.merged.text, tuple(names)
        elif (self.merged, self.reduce_axes) != (st.merged.text, tuple(names)):
            self.fail(err.BadAxis, f"every reduction must be over the same axes: "
                      f"'{', '.join(self.reduce_axes)} as {self.merged}' was reduced before", st.axis.pos)
        return self.merged

    def st_AssignStmt(self, st: S.AssignStmt):
        name = st.name.text
        # An argmax/argmin index is assigned as it is to an output, never computed with.
        index = self._index_ref(st.expr) if self.names.get(name) == "output" else None
        e = index or self.expr(st.expr)
        if self.names.get(name) == "output":
            if name in self.out_exprs:
                self.fail(err.DuplicateName, f"output '{name}' is assigned twice", st.name.pos)
            self.out_exprs[name] = (e, self.loc(st.pos))
            return
        # Each local reads earlier ones; every later stage follows such chains recursively,
        # so a chain is as bounded as an expression's nesting (issue 13).
        depth = 1 + max((self.local_depth.get(r.name, 0) for r in ir.refs(e) if r.kind == "local"), default=0)
        if depth > 100:
            self.fail(err.TooDeep, f"'{name}' ends a chain of {depth} locals each reading the one before; "
                      "at most 100", st.name.pos)
        self.local_depth[name] = depth
        self.declare(st.name, "local")
        self.stage_of[name] = self.stage(e)
        self.locals.append(ir.Local(name, e, self.per_element(e), self.loc(st.pos)))

    def st_LayoutStmt(self, st: S.LayoutStmt):
        self.once(st, "layout")
        if st.axis.text not in self.named_axes:
            self.fail(err.UnknownName, f"unknown axis '{st.axis.text}'"
                      + did_you_mean(st.axis.text, self.named_axes), st.axis.pos)
        self.innermost = st.axis.text
        self.locs["layout"] = self.loc(st.pos)

    def st_TileStmt(self, st: S.TileStmt):
        self.once(st, "tile")
        for item in st.items:
            if item.axis.text in self.tiles:
                self.fail(err.DuplicateName, f"tile {item.axis.text} is given twice", item.axis.pos)
            if item.axis.text not in self.named_axes:
                self.fail(err.UnknownName, f"unknown axis '{item.axis.text}'"
                          + did_you_mean(item.axis.text, self.named_axes), item.axis.pos)
            self._own_axis(item.axis.text, item.axis.pos, "a tile")
            v = self.sched(item.size)
            self.locs[f"tile:{item.axis.text}"] = self.loc(item.size.pos)
            if isinstance(v, sym.Const):
                if v.value < 1 or v.value & (v.value - 1):
                    self.fail(err.BadTile, f"tile {item.axis.text} = {v.value} is not a power of two", item.size.pos)
            elif not self.reductions or item.axis.text != self.reductions[0].axis:
                # A batch tile only picks which rows a program holds; it must still be
                # a compile-time constant. A shape-dependent *reduce* tile is kept so
                # that the verifier can reject it with a counterexample.
                self.fail(err.BadTile, f"tile {item.axis.text} must be a constant power of two, got an "
                          f"expression over {', '.join(sorted(v.free()))}", item.size.pos)
            self.tiles[item.axis.text] = v

    def st_SplitStmt(self, st: S.SplitStmt):
        self.once(st, "split")
        if not self.reductions:
            self.fail(err.BadSplit, "'split' must come after the 'reduce' statement that names the reduce axis",
                      st.pos)
        if st.axis.text != self.reductions[0].axis:
            self.fail(err.BadSplit, f"only the reduce axis can be split: '{st.axis.text}' is not the reduce axis "
                      f"'{self.reductions[0].axis}'", st.axis.pos)
        if st.value is None:  # `split <axis> none`: one chunk, as with no split statement
            self.split = None
            self.locs["split"] = self.loc(st.pos)
            return
        value = self.sched(st.value)
        if isinstance(value, sym.Const) and value.value < 1:
            what = "size" if st.kind.text == "fixed_size" else "count"
            self.fail(err.BadSplit, f"the split {what} must be a positive integer, got {value.value}",
                      st.value.pos)
        self.split = ir.Split(st.axis.text, st.kind.text, value, self.loc(st.pos))
        self.locs["split"] = self.loc(st.pos)
        self.locs["split_value"] = self.loc(st.value.pos)

    def st_CoresStmt(self, st: S.CoresStmt):
        self.once(st, "cores")
        self.locs["cores"] = self.loc(st.pos)
        if isinstance(st.value, S.Name) and st.value.id == "auto":
            self.cores = None
            return
        n = self.const_int(st.value, "cores", err.BadCores) if not isinstance(st.value, S.Name) else None
        if n is None or n < 1:
            shown = st.value.id if isinstance(st.value, S.Name) else n
            self.fail(err.BadCores, f"cores must be a positive integer or 'auto', got {shown}", st.value.pos)
        self.cores = n

    def st_WarpsStmt(self, st: S.WarpsStmt):
        self.once(st, "warps")
        n = self.const_int(st.value, "warps", err.BadWarps)
        if n not in (1, 2, 4, 8, 16, 32):
            self.fail(err.BadWarps, f"warps must be a power of two from 1 to 32, got {n}", st.value.pos)
        self.warps = n
        self.locs["warps"] = self.loc(st.pos)

    def st_TuneStmt(self, st: S.TuneStmt):
        # Here the target, its tunable knobs, the value and duplicates. Which of those knobs the op's
        # module has depends on its plan: emit checks that (redgen/emit.py, _tuned).
        if st.target.text not in targets.names():
            self.fail(err.BadTune, f"unknown target '{st.target.text}' (targets: {', '.join(targets.names())})"
                      + did_you_mean(st.target.text, targets.names()), st.target.pos)
        target = targets.get(st.target.text)
        if st.knob.text in target.stated_knobs:
            self.fail(err.BadTune, f"{st.knob.text} is decided by the plan and stated in the certificate; "
                      f"a spec cannot tune it", st.knob.pos)
        known = target.tunable()
        if st.knob.text not in known:
            has = f"knobs: {', '.join(known)}" if known else "its launchers have no knobs to tune"
            self.fail(err.BadTune, f"'{st.knob.text}' is not a knob of the {st.target.text} launchers ({has})"
                      + did_you_mean(st.knob.text, known), st.knob.pos)
        for t in self.tunes:
            if (t.target, t.knob) == (st.target.text, st.knob.text):
                self.fail(err.BadTune, f"{t.target} knob {t.knob} is tuned twice (first at line {t.loc.line})",
                          st.knob.pos)
        n = self.const_int(st.value, f"tune {st.knob.text}", err.BadTune)
        if n < 0:
            self.fail(err.BadTune, f"tune {st.knob.text} must be a non-negative integer, got {n}", st.value.pos)
        if st.knob.text in target.pow2_knobs and (n < 1 or n & (n - 1)):
            self.fail(err.BadTune, f"tune {st.knob.text} must be a power of two, got {n}", st.value.pos)
        if st.knob.text in target.pow2_knobs and st.knob.text.endswith("_WARPS") and n > 32:
            self.fail(err.BadTune, f"tune {st.knob.text} must be at most 32 warps, got {n}", st.value.pos)
        self.tunes.append(ir.Tune(st.target.text, st.knob.text, n, self.loc(st.knob.pos)))

    def st_ShortStmt(self, st: S.ShortStmt):
        self.once(st, "short")
        if not self.reductions:
            self.fail(err.BadShort, "'short' must come after the 'reduce' statement that names the reduce axis",
                      st.pos)
        axis = self.reductions[0].axis
        if st.axis.text != axis:
            self.fail(err.BadShort, f"'short' bounds the reduce length: '{st.axis.text}' is not the reduce axis "
                      f"'{axis}'", st.axis.pos)
        if self.reduce_axes:
            self.fail(err.BadShort, f"'short' is for one reduce axis; '{axis}' merges "
                      f"{', '.join(self.reduce_axes)}", st.pos)
        if st.cmp.text != "<=":
            self.fail(err.BadShort, f"'short' takes '{axis} <= bound', not '{st.cmp.text}'", st.cmp.pos)
        bound = self.const_int(st.bound, "the short bound", err.BadShort)
        if bound < 1:
            self.fail(err.BadShort, f"the short bound must be a positive integer, got {bound}", st.bound.pos)
        name = st.op.text
        why = op_name_problem(name)
        if why:
            self.fail(err.BadShort, f"op name '{name}' {why}", st.op.pos)
        if name == self.spec.name.text:
            self.fail(err.BadShort, f"'short' names this op itself ('{name}'): name the op that computes the "
                      f"short rows", st.op.pos)
        self.short = ir.Short(axis, bound, name, self.loc(st.pos))

    # -- whole-op checks -----------------------------------------------------------
    def finish(self) -> ir.Op:
        name_pos = self.spec.name.pos
        why = op_name_problem(self.spec.name.text)
        if why:
            self.fail(err.OpName, f"op name '{self.spec.name.text}' {why}: the op name becomes the generated "
                      f"module's name and its launcher function's; choose another", name_pos)
        if not self.inputs:
            self.fail(err.MissingDecl, f"op '{self.spec.name.text}' declares no input ('in x[...] : f32')", name_pos)
        if not self.reductions:
            self.fail(err.MissingDecl, f"op '{self.spec.name.text}' has no 'reduce' statement", name_pos)
        if not self.out_decls:
            self.fail(err.MissingDecl, f"op '{self.spec.name.text}' declares no output ('out y[...] : like x')",
                      name_pos)
        axis = self.reductions[0].axis
        axes = self.axes
        reduced = self.reduce_axes or (axis,)
        i = axes.index(reduced[0])
        batch = tuple(a for a in axes if a not in reduced)
        if i > 1 or len(batch) - i > 1:
            raise err.BadAxis(f"the first input '{self.inputs[0].name}[{', '.join(axes)}]' must have at most "
                              f"one batch axis before and one after the reduce axis '{axis}'",
                              self.reductions[0].loc, self.spec.source)
        for inp in self.inputs[1:]:
            has = [a for a in self.reduce_axes if a in inp.axes]
            if has and len(has) != len(self.reduce_axes):
                raise err.BadAxis(f"input '{inp.name}[{', '.join(inp.axes)}]' has '{has[0]}' but not every axis "
                                  f"merged as '{axis}' ({', '.join(self.reduce_axes)}): an input has all of them "
                                  f"or none", inp.loc, self.spec.source)
        for name, pos in self.size_reads:
            if name != axis:
                self.fail(err.BatchValue, f"an expression cannot read the batch size '{name}': a row's values "
                          f"must depend only on its own inputs, the reduce length '{axis}' and constants "
                          f"(batch invariance is about values, not only the combine order)", pos)
        outputs = []
        for d in self.out_decls:
            got = tuple(a.text for a in d.axes)
            # A mapped output has every axis of the first input and is computed element-wise
            # after all reductions; a reduced one has the batch axes (one value per row).
            mapped = got == axes
            if mapped and self.reduce_axes:
                self.fail(err.BadOutput, f"output '{d.name.text}' is over the reduce axes merged as '{axis}': an "
                          f"output over several reduce axes is not supported; declare it over "
                          f"[{', '.join(batch)}]", d.pos)
            if got != batch and not mapped:
                self.fail(err.BadOutput, f"output '{d.name.text}[{', '.join(got)}]' must have the batch axes "
                          f"[{', '.join(batch)}] (one value per reduced row) or every axis "
                          f"[{', '.join(axes)}] of '{self.inputs[0].name}' (element-wise over the reduce "
                          f"axis '{axis}', after the reductions)", d.pos)
            if d.name.text not in self.out_exprs:
                self.fail(err.BadOutput, f"output '{d.name.text}' is never assigned ('{d.name.text} = ...')", d.pos)
            e, loc = self.out_exprs[d.name.text]
            if not self._reads_data(e):  # issue 13: a constant output emitted a kernel that cannot run
                raise err.BadOutput(f"output '{d.name.text}' reads no reduction and no input (a constant); "
                                    "compute it from a reduction", loc, self.spec.source)
            if not mapped and self.per_element(e):
                raise err.BadExpr(f"output '{d.name.text}' has no axis '{axis}' but its expression reads an "
                                  f"input element-wise; reduce it first, or declare it over "
                                  f"[{', '.join(axes)}]", loc, self.spec.source)
            self._check_out_dtype(d, e)
            like = d.dtype.text if d.like else None
            outputs.append(ir.Output(d.name.text, got, like, None if d.like else d.dtype.text, e, loc, mapped))
        last = max(r.stage for r in self.reductions)
        for r in self.reductions:
            if r.index and r.stage != last:
                raise err.IndexMisuse(f"'{r.name}' ({r.combiner}) runs in stage {r.stage + 1} of {last + 1}: an "
                                      f"index reduction must be in the last stage (its index is not carried "
                                      f"to later reductions)", r.loc, self.spec.source)
            if not self.per_element(r.expr):
                raise err.BadExpr(f"reduction '{r.name}' reads no input element-wise: there is nothing to reduce",
                                  r.loc, self.spec.source)
        if self.innermost is not None and self.innermost != axis:
            self.fail(err.BadLayout, f"only the reduce axis '{axis}' can be made innermost, not "
                      f"'{self.innermost}'", S.Pos(self.locs["layout"].line, self.locs["layout"].col))
        schedule = ir.Schedule(
            tiles=tuple(sorted(self.tiles.items())),
            split=self.split, cores=self.cores, warps=self.warps, innermost=self.innermost,
            locs=tuple(sorted(self.locs.items())), short=self.short, tunes=tuple(self.tunes),
        )
        return ir.Op(
            name=self.spec.name.text, path=self.spec.path, source=self.spec.source,
            digest=hashlib.sha256(self.spec.source.encode()).hexdigest(),
            inputs=tuple(self.inputs), params=tuple(self.params), reductions=tuple(self.reductions),
            locals=tuple(self.locals), outputs=tuple(outputs), acc=self.acc or "f32", reduce_axis=axis,
            before=axes[0] if i == 1 else None, after=batch[i] if len(batch) > i else None,
            schedule=schedule, calls=tuple(self.calls), reduce_axes=self.reduce_axes,
        )

    def _check_out_dtype(self, d: S.OutputDecl, e: ir.E) -> None:
        """An i64 output holds exactly an argmax/argmin index; an index goes to an i64 output only."""
        index = (isinstance(e, ir.Ref) and e.kind == "reduce"
                 and self._reduction(e.name).index)
        is_i64 = not d.like and d.dtype.text in ir.INDEX_DTYPES
        if is_i64 and not index:
            self.fail(err.DtypeMismatch, f"output '{d.name.text}' is {d.dtype.text}, an index type: only an "
                      f"argmax/argmin result can be assigned to it", d.dtype.pos)
        if index and not is_i64:
            shown = f"like {d.dtype.text}" if d.like else d.dtype.text
            self.fail(err.DtypeMismatch, f"output '{d.name.text}' is assigned the index '{e.name}' "
                      f"({self._reduction(e.name).combiner}) but is declared '{shown}': declare it ': i64'",
                      d.dtype.pos)


_FOLD = {
    "neg": lambda a: -a, "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
}


def _size_depth(e: ir.E) -> tuple[int, int]:
    """Node count and depth of `e` as a tree (shared subtrees counted each time), without
    recursion: inlined locals can make a small DAG a huge tree."""
    memo: dict[int, tuple[int, int]] = {}
    stack: list[tuple[ir.E, bool]] = [(e, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in memo:
            continue
        kids = node.args if isinstance(node, ir.Apply) else ()
        if done or not kids:
            sizes = [memo[id(k)] for k in kids]
            memo[id(node)] = (1 + sum(s for s, _ in sizes), 1 + max((d for _, d in sizes), default=0))
            continue
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in memo)
    return memo[id(e)]


def _fold(e: ir.E) -> float:
    """The value of a constant expression (a parameter default)."""
    if isinstance(e, ir.Lit):
        return e.value
    if isinstance(e, ir.Apply):
        args = [_fold(a) for a in e.args]
        return float(_FOLD[e.fn](*args)) if e.fn in _FOLD else functions.fold(e.fn, args)
    raise TypeError(e)


def _int_literal(e: S.Expr) -> int | None:
    """An integer-valued literal (`2`, `-3`, `2.0`) as an int, else None."""
    sign = 1
    if isinstance(e, S.Neg):
        sign, e = -1, e.a
    if isinstance(e, S.Num) and float(e.value).is_integer():
        return sign * int(float(e.value))
    return None


def check(spec: S.Spec) -> ir.Op | ir.Contraction:
    """Resolve and type-check a parsed spec; raises a RedgenError subclass.

    A contraction (`reduce K: c = sum(a * b)` over an axis two inputs share, see
    contraction_check.py) and an attention spec (softmax_sum, mask or group, see
    attention.py) have their own checkers and IR.
    """
    from redgen import attention
    from redgen.contraction_check import check_contraction, is_contraction

    if attention.is_attention(spec):
        return attention.check(spec)
    if is_contraction(spec):
        return check_contraction(spec)
    return _Checker(spec).run()
