"""Attention specs: check (syntax -> AttentionOp) and plan (AttentionOp -> AttentionPlan).

An attention spec is a two-level reduction over the KV axis:

    op attention
    in   q[T, H, D] : bf16 | f16 | f32        # queries of every sequence, packed
    in   k[S, G, D] : bf16 | f16 | f32        # keys, packed
    in   v[S, G, D] : bf16 | f16 | f32
    out  o[T, H, D] : like q
    acc  f32
    param scale = rsqrt(D)
    group H by G                              # GQA: query head h reads KV head h // (H / G)
    reduce D: qk = sum(q * k)                 # scores: a contraction over the head dim
    s = qk * scale
    reduce S: a = softmax_sum(s, v)           # online softmax over KV: (max, scaled sum, weighted acc)
    o = a
    mask causal                               # query i of q_len sees keys j <= kv_len - q_len + i
    tile T = 64, S = 64                       # query rows per tile, keys per block
    split S fixed_size 256                    # chunks of 256 keys at absolute positions

T and S are the packed query and key axes: sequence b holds queries
cu_seqlens_q[b]:cu_seqlens_q[b+1] and keys cu_seqlens_k[b]:cu_seqlens_k[b+1]
(no padding). The checker accepts exactly this shape (names are the user's);
anything else is a coded error at the offending token. The plan fixes the order
of each output row (attention_verify.py proves it); the emitter is
attention_emit.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from redgen import errors as err
from redgen import ir, sym, targets
from redgen import syntax as S
from redgen.errors import Loc, did_you_mean
from redgen.plan import Kernel

SOFTMAX_SUM = "softmax_sum"
MASKS = ("causal", "none")
HEAD_DIMS = (16, 32, 64, 128, 256)  # what one tl.dot over the head dim takes
DEFAULT_BLOCK_M = 64
DEFAULT_BLOCK_N = 64
DEFAULT_WARPS = 4
NUM_STAGES = 2
NO_SPLIT = 1 << 30  # the chunk of a spec without `split`: one chunk per row
# Below this many programs the cuda launcher splits KV over more programs (a constant:
# the split and fused paths give the same bits, see attention_verify).
SPLIT_BELOW = 264
# ascend: tl.dot runs on the cube (AI) cores; the persistent grid is capped by their count.
BATCH = "batch"  # the number of sequences, a name schedule expressions may read (to be refused)


def is_attention(spec: S.Spec) -> bool:
    """Whether `spec` is an attention spec: it has softmax_sum, a mask or a group statement."""
    return any(isinstance(st, (S.MaskStmt, S.GroupStmt))
               or (isinstance(st, S.ReduceStmt) and st.combiner.text == SOFTMAX_SUM) for st in spec.stmts)


@dataclass(frozen=True)
class AttentionOp:
    name: str
    path: str
    source: str
    digest: str
    q: ir.Input
    k: ir.Input
    v: ir.Input
    out: str
    query_axis: str  # T: packed queries
    kv_axis: str  # S: packed keys
    heads: str  # H
    kv_heads: str  # G
    dim: str  # D
    scale: float | None  # None: 1/sqrt(D) at launch
    causal: bool
    acc: str
    schedule: ir.Schedule
    reductions: tuple[str, ...]  # names of the two reductions: the scores, the softmax_sum
    loc: Loc
    scores_line: int = 0  # provenance (# spec:LINE): the line of `reduce D: qk = sum(q * k)`

    @property
    def reduce_axis(self) -> str:
        return self.kv_axis

    @property
    def inputs(self) -> tuple[ir.Input, ...]:
        return (self.q, self.k, self.v)


class _Checker:
    def __init__(self, spec: S.Spec):
        self.spec = spec
        self.inputs: list[S.InputDecl] = []
        self.param: S.ParamDecl | None = None
        self.scale: float | None = None
        self.out: S.OutputDecl | None = None
        self.acc = "f32"
        self.scores: S.ReduceStmt | None = None
        self.scaled: S.AssignStmt | None = None
        self.softmax: S.ReduceStmt | None = None
        self.assigned: S.AssignStmt | None = None
        self.causal = False
        self.group: S.GroupStmt | None = None
        self.tiles: dict[str, sym.SExpr] = {}
        self.split: ir.Split | None = None
        self.warps: int | None = None
        self.cores: int | None = None
        self.locs: dict[str, Loc] = {}
        self.seen: set[type] = set()

    def loc(self, pos: S.Pos) -> Loc:
        return Loc(self.spec.path, pos.line, pos.col)

    def fail(self, cls: type[err.RedgenError], msg: str, pos: S.Pos):
        raise cls(msg, self.loc(pos), self.spec.source)

    def once(self, st, what: str) -> None:
        if type(st) in self.seen:
            self.fail(err.DuplicateName, f"'{what}' is given twice", st.pos)
        self.seen.add(type(st))

    # -- axes, as the inputs name them ----------------------------------------------
    @property
    def q(self) -> S.InputDecl:
        return self.inputs[0]

    def axis(self, i: int, which: int = 0) -> str:
        return self.inputs[which].axes[i].text

    def need_inputs(self, pos: S.Pos, what: str) -> None:
        if len(self.inputs) < 3:
            self.fail(err.MissingDecl, f"declare the three inputs q[T, H, D], k[S, G, D], v[S, G, D] before "
                      f"{what}", pos)

    def is_name(self, e: S.Expr, name: str) -> bool:
        return isinstance(e, S.Name) and e.id == name

    # -- statements --------------------------------------------------------------------
    def run(self) -> AttentionOp:
        for st in self.spec.stmts:
            getattr(self, "st_" + type(st).__name__)(st)
        return self.finish()

    def st_InputDecl(self, st: S.InputDecl):
        if len(self.inputs) == 3:
            self.fail(err.BadAttention, "attention takes three inputs (queries, keys, values), this is a fourth",
                      st.name.pos)
        if len(st.axes) != 3:
            self.fail(err.BadAttention, f"'{st.name.text}' must have three axes "
                      f"[{'T, H, D' if not self.inputs else 'S, G, D'}]: packed tokens, heads, head dim",
                      st.pos)
        if st.name.text in {i.name.text for i in self.inputs}:
            self.fail(err.DuplicateName, f"'{st.name.text}' is already an input", st.name.pos)
        for t in st.dtypes:
            if t.text not in ir.DTYPES:
                self.fail(err.BadDtype, f"dtype '{t.text}' is not one of {', '.join(ir.DTYPES)}"
                          + did_you_mean(t.text, ir.DTYPES), t.pos)
        if self.inputs:
            if [t.text for t in st.dtypes] != [t.text for t in self.q.dtypes]:
                self.fail(err.BadDtype, f"'{st.name.text}' must allow the dtypes of '{self.q.name.text}' "
                          f"({' | '.join(t.text for t in self.q.dtypes)}): q, k and v share one dtype", st.pos)
            if st.axes[2].text != self.q.axes[2].text:
                self.fail(err.BadAxis, f"the last axis of '{st.name.text}' must be the head dim "
                          f"'{self.q.axes[2].text}' of '{self.q.name.text}'", st.axes[2].pos)
            if st.axes[0].text == self.q.axes[0].text:
                self.fail(err.BadAxis, f"the key axis of '{st.name.text}' must differ from the query axis "
                          f"'{self.q.axes[0].text}' (sequences have their own query and key lengths)",
                          st.axes[0].pos)
        if len(self.inputs) == 2 and [a.text for a in st.axes] != [a.text for a in self.inputs[1].axes]:
            self.fail(err.BadAxis, f"the values '{st.name.text}' must have the axes of the keys "
                      f"[{', '.join(a.text for a in self.inputs[1].axes)}]", st.axes[0].pos)
        self.inputs.append(st)

    def st_ParamDecl(self, st: S.ParamDecl):
        if self.param is not None:
            self.fail(err.BadAttention, f"attention takes one parameter, the softmax scale ('{self.param.name.text}' "
                      f"is declared already)", st.name.pos)
        self.need_inputs(st.pos, "the scale")
        e = st.default
        if isinstance(e, S.Call) and e.fn.text == "rsqrt" and len(e.args) == 1 and self.is_name(e.args[0],
                                                                                                 self.axis(2)):
            self.scale = None
        elif isinstance(e, S.Num) and float(e.value) > 0:
            self.scale = float(e.value)
        else:
            self.fail(err.BadExpr, f"the default of the scale '{st.name.text}' must be a positive number or "
                      f"rsqrt({self.axis(2)})", e.pos)
        self.param = st

    def st_OutputDecl(self, st: S.OutputDecl):
        self.need_inputs(st.pos, "the output")
        if self.out is not None:
            self.fail(err.BadAttention, "attention has one output", st.name.pos)
        if [a.text for a in st.axes] != [a.text for a in self.q.axes]:
            self.fail(err.BadOutput, f"the output '{st.name.text}' must have the axes of the queries "
                      f"[{', '.join(a.text for a in self.q.axes)}]", st.pos)
        if not st.like or st.dtype.text != self.q.name.text:
            self.fail(err.BadOutput, f"the output '{st.name.text}' must be 'like {self.q.name.text}'", st.dtype.pos)
        self.out = st

    def st_AccDecl(self, st: S.AccDecl):
        self.once(st, "acc")
        if st.dtype.text not in ir.ACC_DTYPES:
            self.fail(err.BadDtype, f"dtype '{st.dtype.text}' is not one of {', '.join(ir.ACC_DTYPES)}", st.dtype.pos)

    def st_ReduceStmt(self, st: S.ReduceStmt):
        self.need_inputs(st.pos, "a reduction")
        if st.extra:  # `(a, b) = ...` binds several results: only softmax_stats has them
            self.fail(err.BadArity, f"'{st.combiner.text}' here gives one result: bind one name, not "
                      f"{1 + len(st.extra)}", st.name.pos)
        q, k, v = (i.name.text for i in self.inputs)
        if self.scores is None:
            if st.axis.text != self.axis(2):
                self.fail(err.BadAttention, f"the first reduction of attention is the scores, over the head dim "
                          f"'{self.axis(2)}': 'reduce {self.axis(2)}: qk = sum({q} * {k})'", st.axis.pos)
            prod = st.expr
            ok = (st.combiner.text == "sum" and not st.more and isinstance(prod, S.BinOp) and prod.op == "*"
                  and {getattr(prod.a, "id", None), getattr(prod.b, "id", None)} == {q, k})
            if not ok:
                self.fail(err.BadAttention, f"the scores are 'sum({q} * {k})' over '{self.axis(2)}'",
                          st.combiner.pos)
            self.scores = st
            return
        if self.softmax is not None:
            self.fail(err.BadAttention, "attention has two reductions: the scores and one softmax_sum",
                      st.pos)
        if st.axis.text != self.axis(0, 1):
            self.fail(err.BadAttention, f"softmax_sum reduces the key axis '{self.axis(0, 1)}'", st.axis.pos)
        if st.combiner.text != SOFTMAX_SUM:
            self.fail(err.UnknownCombiner, f"the reduction over the key axis of attention is "
                      f"'{SOFTMAX_SUM}(scores, {v})', not '{st.combiner.text}'", st.combiner.pos)
        if len(st.more) != 1:
            self.fail(err.BadArity, f"{SOFTMAX_SUM}() takes 2 arguments (scores, values), got {1 + len(st.more)}",
                      st.combiner.pos)
        score_names = {self.scores.name.text} | ({self.scaled.name.text} if self.scaled else set())
        if not (isinstance(st.expr, S.Name) and st.expr.id in score_names):
            self.fail(err.BadAttention, f"the first argument of {SOFTMAX_SUM} is the scores "
                      f"({' or '.join(sorted(score_names))})", st.expr.pos)
        if not self.is_name(st.more[0], v):
            self.fail(err.BadAttention, f"the second argument of {SOFTMAX_SUM} is the values '{v}'",
                      st.more[0].pos)
        self.softmax = st

    def st_AssignStmt(self, st: S.AssignStmt):
        if self.out is not None and st.name.text == self.out.name.text:
            if self.softmax is None or not self.is_name(st.expr, self.softmax.name.text):
                self.fail(err.BadAttention, f"the output is assigned the softmax_sum result "
                          f"('{st.name.text} = {self.softmax.name.text if self.softmax else 'a'}')", st.expr.pos)
            self.assigned = st
            return
        if self.scores is None or self.softmax is not None or self.scaled is not None:
            self.fail(err.BadAttention, "attention has one local value, the scaled scores, between the two "
                      "reductions ('s = qk * scale')", st.pos)
        e = st.expr
        names = {self.scores.name.text, self.param.name.text if self.param else None}
        if not (isinstance(e, S.BinOp) and e.op == "*"
                and {getattr(e.a, "id", None), getattr(e.b, "id", None)} == names and None not in names):
            self.fail(err.BadAttention, f"the scaled scores are '{self.scores.name.text} * <scale parameter>'",
                      e.pos)
        self.scaled = st

    def st_MaskStmt(self, st: S.MaskStmt):
        self.once(st, "mask")
        if st.kind.text not in MASKS:
            self.fail(err.BadMask, f"unknown mask '{st.kind.text}' (one of {', '.join(MASKS)})"
                      + did_you_mean(st.kind.text, MASKS), st.kind.pos)
        self.causal = st.kind.text == "causal"

    def st_GroupStmt(self, st: S.GroupStmt):
        self.once(st, "group")
        self.need_inputs(st.pos, "group")
        if st.heads.text != self.axis(1):
            self.fail(err.BadGroup, f"'group' names the query head axis '{self.axis(1)}' first", st.heads.pos)
        if st.kv_heads.text != self.axis(1, 1):
            self.fail(err.BadGroup, f"'group {self.axis(1)} by ...' names the KV head axis '{self.axis(1, 1)}'",
                      st.kv_heads.pos)
        if st.heads.text == st.kv_heads.text:
            self.fail(err.BadGroup, "a group of a head axis by itself is no group: drop the statement",
                      st.kv_heads.pos)
        self.group = st

    def st_TileStmt(self, st: S.TileStmt):
        self.once(st, "tile")
        self.need_inputs(st.pos, "tile")
        allowed = (self.axis(0), self.axis(0, 1))
        for item in st.items:
            if item.axis.text not in allowed:
                self.fail(err.BadTile, f"attention tiles the query axis '{allowed[0]}' (rows per tile) and the "
                          f"key axis '{allowed[1]}' (keys per block), not '{item.axis.text}'", item.axis.pos)
            if item.axis.text in self.tiles:
                self.fail(err.DuplicateName, f"tile {item.axis.text} is given twice", item.axis.pos)
            v = self.sched(item.size)
            if not isinstance(v, sym.Const):
                self.tiles[item.axis.text] = v  # the verifier refuses it with a counterexample
                self.locs[f"tile:{item.axis.text}"] = self.loc(item.size.pos)
                continue
            if v.value < 16 or v.value & (v.value - 1) or v.value > 256:
                self.fail(err.BadTile, f"tile {item.axis.text} = {v.value} must be a power of two from 16 to 256 "
                          f"(one tl.dot operand)", item.size.pos)
            self.tiles[item.axis.text] = v
            self.locs[f"tile:{item.axis.text}"] = self.loc(item.size.pos)

    def st_SplitStmt(self, st: S.SplitStmt):
        self.once(st, "split")
        self.need_inputs(st.pos, "split")
        if st.axis.text != self.axis(0, 1):
            self.fail(err.BadSplit, f"attention splits the key axis '{self.axis(0, 1)}', not '{st.axis.text}'",
                      st.axis.pos)
        value = self.sched(st.value)
        if isinstance(value, sym.Const) and value.value < 1:
            self.fail(err.BadSplit, f"the split {'size' if st.kind.text == 'fixed_size' else 'count'} must be a "
                      f"positive integer, got {value.value}", st.value.pos)
        self.split = ir.Split(st.axis.text, st.kind.text, value, self.loc(st.pos))
        self.locs["split"] = self.loc(st.pos)

    def st_WarpsStmt(self, st: S.WarpsStmt):
        self.once(st, "warps")
        v = self.sched(st.value)
        if not isinstance(v, sym.Const) or v.value not in (1, 2, 4, 8, 16):
            self.fail(err.BadWarps, f"warps must be a constant power of two from 1 to 16, got {v}", st.value.pos)
        self.warps = v.value
        self.locs["warps"] = self.loc(st.pos)

    def st_ShortStmt(self, st: S.ShortStmt):
        self.fail(err.BadShort, "'short' is for reductions over one axis; attention's order over its keys is "
                  "fixed by its split", st.pos)

    def st_TuneStmt(self, st: S.TuneStmt):
        self.fail(err.BadTune, "'tune' sets launch knobs of a reduction spec's launcher; attention's "
                  "launcher is not tuned from its spec", st.pos)

    def st_CoresStmt(self, st: S.CoresStmt):
        self.once(st, "cores")
        v = self.sched(st.value)
        if not isinstance(v, sym.Const) or v.value < 1:
            self.fail(err.BadCores, f"cores must be a positive integer, got {v}", st.value.pos)
        self.cores = v.value
        self.locs["cores"] = self.loc(st.pos)

    def st_LayoutStmt(self, st: S.LayoutStmt):
        self.fail(err.BadLayout, "attention has no layout statement: the head dim is the contiguous one", st.pos)

    # -- schedule expressions: integers over the query/key lengths, batch and cores ----
    def sched(self, e: S.Expr) -> sym.SExpr:
        # q's rows and k's keys, once declared (`warps 4` may come before the inputs)
        axes = [self.axis(0, w) for w in (0, 1) if w < len(self.inputs) and self.inputs[w].axes]
        names = (*axes, BATCH, "cores")
        if isinstance(e, S.Num):
            if not isinstance(e.value, int):
                self.fail(err.BadExpr, f"schedule values are integers, got {e.text}", e.pos)
            return sym.const(e.value)
        if isinstance(e, S.Name):
            if e.id in names:
                return sym.Sym(e.id)
            self.fail(err.UnknownName, f"unknown name '{e.id}' in an attention schedule expression (one of "
                      f"{', '.join(names)})" + did_you_mean(e.id, names), e.pos)
        ops = {"+": sym.add, "-": sym.sub, "*": sym.mul, "/": sym.floordiv}
        fns = {"min": sym.smin, "max": sym.smax, "cdiv": sym.cdiv}
        if isinstance(e, S.BinOp):
            a, b = self.sched(e.a), self.sched(e.b)
            if e.op == "/" and b == sym.const(0):
                self.fail(err.BadExpr, "division by zero in a schedule expression", e.b.pos)
            return ops[e.op](a, b)
        if isinstance(e, S.Call) and e.fn.text in fns and len(e.args) == 2:
            a, b = self.sched(e.args[0]), self.sched(e.args[1])
            if e.fn.text == "cdiv" and b == sym.const(0):
                self.fail(err.BadExpr, "division by zero in a schedule expression", e.args[1].pos)
            return fns[e.fn.text](a, b)
        self.fail(err.BadExpr, "a schedule expression uses integers, the query/key lengths, batch, cores, "
                  "+ - * /, min, max and cdiv", e.pos)

    # -- the whole op --------------------------------------------------------------------
    def finish(self) -> AttentionOp:
        pos = self.spec.name.pos
        self.need_inputs(pos, "the end of the spec")
        missing = [(what, ex) for what, ex, have in (
            ("the scores", "reduce D: qk = sum(q * k)", self.scores),
            ("the softmax_sum", "reduce S: a = softmax_sum(s, v)", self.softmax),
            ("the output", "out o[T, H, D] : like q", self.out),
            ("the output's assignment", "o = a", self.assigned)) if have is None]
        if missing:
            what, ex = missing[0]
            self.fail(err.MissingDecl, f"attention op '{self.spec.name.text}' lacks {what} ('{ex}')", pos)
        if self.scaled is not None and self.softmax.expr.id != self.scaled.name.text:
            self.fail(err.BadAttention, f"'{self.scaled.name.text}' (the scaled scores) is computed but "
                      f"softmax_sum reads '{self.softmax.expr.id}'", self.softmax.expr.pos)
        if self.axis(1) != self.axis(1, 1) and self.group is None:
            self.fail(err.BadGroup, f"the queries have head axis '{self.axis(1)}' and the keys '{self.axis(1, 1)}': "
                      f"say 'group {self.axis(1)} by {self.axis(1, 1)}' (GQA)", self.inputs[1].axes[1].pos)

        def inp(d: S.InputDecl) -> ir.Input:
            return ir.Input(d.name.text, tuple(a.text for a in d.axes), tuple(t.text for t in d.dtypes),
                            self.loc(d.pos))

        q, k, v = (inp(d) for d in self.inputs)
        scale = self.scale if self.param is not None else None
        reds = (self.scores.name.text, self.softmax.name.text)
        schedule = ir.Schedule(tiles=tuple(sorted(self.tiles.items())), split=self.split, cores=self.cores,
                               warps=self.warps, innermost=None, locs=tuple(sorted(self.locs.items())))
        return AttentionOp(
            name=self.spec.name.text, path=self.spec.path, source=self.spec.source,
            digest=hashlib.sha256(self.spec.source.encode()).hexdigest(), q=q, k=k, v=v,
            out=self.out.name.text, query_axis=self.axis(0), kv_axis=self.axis(0, 1), heads=self.axis(1),
            kv_heads=self.axis(1, 1), dim=self.axis(2), scale=scale, causal=self.causal, acc=self.acc,
            schedule=schedule, reductions=reds, loc=self.loc(self.softmax.pos), scores_line=self.scores.pos.line,
        )


def check(spec: S.Spec) -> AttentionOp:
    """Resolve and check an attention spec (is_attention(spec) is true)."""
    return _Checker(spec).run()


# --- plan ------------------------------------------------------------------------------------
ROW = "L"  # the row's visible length: keys it attends to
POS = "i"  # the row's query index in its sequence


@dataclass(frozen=True)
class AttentionOrder:
    """The combine order of one output row (sequence b, query i, head h), as the plan fixes it.

    Symbols: S = the sequence's key length, T = its query length, i = the query index,
    batch = the number of sequences, cores = the core budget; L = the row's visible length
    (`visible`: S, or with the causal mask min(S, S - T + i + 1)). The keys 0..L-1 are
    visited in blocks of `block_n` at absolute positions 0, block_n, ..., grouped in chunks of
    `chunk` keys at absolute positions; `num_chunks` chunks. Inside a chunk each block's
    scores are one tl.dot over the head dim of a [block_m, D] x [D, block_n] tile, scaled,
    masked by the row's own L; the online-softmax state (max, scaled sum, weighted acc) is
    updated block by block; chunk states are combined into the running state left to right.
    """

    block_m: sym.SExpr
    block_n: sym.SExpr
    chunk: sym.SExpr
    num_chunks: sym.SExpr
    visible: sym.SExpr
    num_warps: int
    acc: str
    causal: bool
    split_kind: str  # fixed_size | fixed_count | none
    provenance: tuple[tuple[str, Loc | None], ...]

    def where(self, field: str) -> Loc | None:
        return dict(self.provenance).get(field)


ORDER_FIELDS = ("block_m", "block_n", "chunk", "num_chunks")


@dataclass(frozen=True)
class AttentionPlan:
    op: AttentionOp
    target: str
    order: AttentionOrder
    kernels: tuple[Kernel, ...]
    split_below: int
    num_stages: int
    cores: int | None = None  # ascend: the cube-core budget (grid cap)
    attention: bool = True

    @property
    def symbols(self) -> dict[str, str]:
        op = self.op
        return {op.kv_axis: "the sequence's key length", op.query_axis: "the sequence's query length",
                POS: "the row's query index", BATCH: "the number of sequences", "cores": "the core budget"}


def visible_length(op: AttentionOp) -> sym.SExpr:
    """The keys row i sees: all S, or with the causal mask those at positions <= S - T + i."""
    s = sym.Sym(op.kv_axis)
    if not op.causal:
        return s
    return sym.smin(s, sym.add(sym.sub(s, sym.Sym(op.query_axis)), sym.add(sym.Sym(POS), sym.const(1))))


def _order(op: AttentionOp, warps: int) -> AttentionOrder:
    s = op.schedule
    block_m = s.tile(op.query_axis, DEFAULT_BLOCK_M)
    block_n = s.tile(op.kv_axis, DEFAULT_BLOCK_N)
    vis = visible_length(op)
    split = s.split
    if split is None:
        chunk, kind = sym.const(NO_SPLIT), "none"
    elif split.kind == "fixed_size":
        chunk, kind = split.value, "fixed_size"
    else:
        count = sym.smax(sym.const(1), split.value)
        chunk, kind = sym.smax(sym.const(1), sym.cdiv(sym.Sym(op.kv_axis), count)), "fixed_count"
    if isinstance(chunk, sym.Const) and isinstance(block_n, sym.Const) and chunk.value % block_n.value \
            and kind != "none":
        raise err.BadSplit(f"the split size {chunk.value} must be a multiple of the key block "
                           f"(tile {op.kv_axis} = {block_n.value}): chunks start at absolute block boundaries",
                           split.loc, op.source)
    where = split.loc if split else None
    return AttentionOrder(
        block_m=block_m, block_n=block_n, chunk=chunk, num_chunks=sym.cdiv(sym.Sym(ROW), chunk), visible=vis,
        num_warps=warps, acc=op.acc, causal=op.causal, split_kind=kind,
        provenance=(("block_m", s.loc(f"tile:{op.query_axis}")), ("block_n", s.loc(f"tile:{op.kv_axis}")),
                    ("chunk", where), ("num_chunks", where)),
    )


def plan(op: AttentionOp, target: str) -> AttentionPlan:
    """The attention plan for `target` (cuda: fused or split + combine; ascend: persistent, fused)."""
    warps = op.schedule.warps or DEFAULT_WARPS
    order = _order(op, warps)
    programs = sym.mul(sym.Sym(BATCH), sym.Sym(op.kv_heads))
    if target == "cuda":
        kernels = (Kernel("fused", "programs >= SPLIT_BELOW or one chunk", 0, programs, warps),
                   Kernel("split", "programs < SPLIT_BELOW: one program per chunk, then a combine pass", 0,
                          programs, warps))
        return AttentionPlan(op, target, order, kernels, SPLIT_BELOW, NUM_STAGES)
    if target == "ascend":
        t = targets.ASCEND
        cores = op.schedule.cores or t.cube_cores
        if cores > t.max_cube_cores:
            raise err.TargetLimit(
                f"ascend: cores {cores} exceeds the {t.max_cube_cores} AI (cube) cores of the largest Atlas "
                f"A2, where attention's tl.dot runs (use cores <= {t.max_cube_cores})",
                op.schedule.loc("cores"), op.source)
        kernels = (Kernel("persistent", "min(tiles, cores) programs loop over the tiles", 0,
                          sym.smin(programs, sym.Sym("cores")), warps),)
        return AttentionPlan(op, target, order, kernels, 0, NUM_STAGES, cores=cores)
    raise err.UnknownTarget(f"unknown target '{target}'")
