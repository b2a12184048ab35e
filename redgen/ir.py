"""The typed IR of an op: what is computed, with every name resolved.

Produced by check.py from the syntax tree. It says nothing about tiles or
grids: that is the plan's job (plan.py), kept apart so that only the verifier
can bless a schedule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from redgen import combiners as _combiners
from redgen import functions as _functions
from redgen.errors import Loc
from redgen.sym import SExpr

DTYPES = ("f32", "f16", "bf16")
ACC_DTYPES = ("f32",)
# Output dtypes: the float dtypes, and i64 for the index an argmax/argmin yields.
INDEX_DTYPES = ("i64",)
# --- language extensions (issue 14): integer inputs, fp8 outputs ---------------------
# An integer input holds positions along the reduce axis (cross-entropy's targets): it
# can only be a gather index (`x[t]`) or compared (`t == ignore`); it is never a value.
INT_DTYPES = ("i64",)
INPUT_DTYPES = DTYPES + INT_DTYPES
# fp8 outputs (per-token quantization). Stored with torch's conversion: round to nearest
# even; a rounded magnitude above the largest finite value is NaN (e4m3fn: no inf) or
# inf (e5m2), as torch's .to(float8_*) -- specs clamp first (vLLM: to +-448).
FP8_DTYPES = ("f8e4m3", "f8e5m2")
FP8_MAX = {"f8e4m3": 448.0, "f8e5m2": 57344.0}
OUT_DTYPES = DTYPES + FP8_DTYPES + INDEX_DTYPES
# The combiners and all that is known of each: redgen/combiners.py (one table).
COMBINERS = tuple(_combiners.COMBINERS)
# name -> number of arguments (the table itself: redgen/functions.py)
FUNCTIONS = {name: f.arity for name, f in _functions.FUNCTIONS.items()}


# --- element-wise expressions -------------------------------------------------
@dataclass(frozen=True)
class Lit:
    value: float


@dataclass(frozen=True)
class Ref:
    """A resolved name. kind: input | param | size | reduce | local | pos (the element's
    position along the reduce axis; only the reductions a gather `x[t]` becomes read it)."""

    kind: str
    name: str


@dataclass(frozen=True)
class Apply:
    """fn is an arithmetic operator (add sub mul div neg) or a FUNCTIONS entry."""

    fn: str
    args: tuple[E, ...]


E = Lit | Ref | Apply


def refs(e: E) -> set[Ref]:
    """Every Ref an expression reads (not following locals)."""
    if isinstance(e, Ref):
        return {e}
    if isinstance(e, Apply):
        return set().union(*(refs(a) for a in e.args))
    return set()


# --- declarations -------------------------------------------------------------
@dataclass(frozen=True)
class Input:
    name: str
    axes: tuple[str, ...]
    dtypes: tuple[str, ...]
    loc: Loc

    @property
    def integer(self) -> bool:
        return self.dtypes[0] in INT_DTYPES


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    loc: Loc


@dataclass(frozen=True)
class Reduction:
    """`reduce <axis>: name = combiner(expr)`; stage 0 reads no other reduction.

    `reduce N: (m, s) = softmax_stats(x)` is one reduction (one state, one pass) binding
    two names: name is m, extra (s,); a Ref to either is resolved by Op.result."""

    name: str
    axis: str
    combiner: str
    expr: E
    stage: int
    loc: Loc
    extra: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.extra)

    @property
    def spec(self) -> _combiners.Combiner:
        return _combiners.get(self.combiner)

    @property
    def index(self) -> bool:
        """Its result is an index into the reduce axis (argmax/argmin), not a value."""
        return self.spec.index


@dataclass(frozen=True)
class Local:
    """A named intermediate; per_element when it reads an input directly."""

    name: str
    expr: E
    per_element: bool
    loc: Loc


@dataclass(frozen=True)
class Output:
    name: str
    axes: tuple[str, ...]
    like: str | None  # dtype follows this input, or...
    dtype: str | None  # ...is fixed
    expr: E
    loc: Loc
    # True: the output has every axis of the first input, the reduce axis included, and
    # is computed element-wise after all reductions (softmax's y[M, N, K]); False: it
    # has the batch axes only (one value per reduced row).
    mapped: bool = False


@dataclass(frozen=True)
class Split:
    axis: str
    kind: str  # fixed_size | fixed_count
    value: SExpr  # over axis sizes and `cores`
    loc: Loc


@dataclass(frozen=True)
class Short:
    """`short N <= bound : op`: rows of at most `bound` elements are computed by `op` (a spec
    beside this one with the same signature), under that op's own certificate."""

    axis: str
    bound: int
    op: str
    loc: Loc
    digest: str = ""  # sha256 of that op's spec (short.resolve): the certificate names the spec it relies on


@dataclass(frozen=True)
class Tune:
    """`tune target KNOB = value`: a launcher knob of `target`'s module set for this op. Knobs
    pick among kernel forms the certificate covers (paths, shapes, warps); none shapes an order."""

    target: str
    knob: str
    value: int
    loc: Loc


@dataclass(frozen=True)
class Schedule:
    """What the spec asks of the schedule; plan.py turns it into a Plan."""

    tiles: tuple[tuple[str, SExpr], ...]  # a reduce tile may be symbolic, for the verifier
    split: Split | None
    cores: int | None  # None: `cores auto` (queried at launch) or no `cores` line (loc('cores') tells)
    warps: int | None
    innermost: str | None
    locs: tuple[tuple[str, Loc], ...] = field(default=())
    short: Short | None = None
    tunes: tuple[Tune, ...] = ()

    def tile(self, axis: str, default: int) -> SExpr:
        from redgen.sym import const

        return dict(self.tiles).get(axis, const(default))

    def loc(self, what: str) -> Loc | None:
        return dict(self.locs).get(what)


@dataclass(frozen=True)
class Op:
    name: str
    path: str
    source: str
    digest: str  # sha256 of the spec text
    inputs: tuple[Input, ...]
    params: tuple[Param, ...]
    reductions: tuple[Reduction, ...]
    locals: tuple[Local, ...]
    outputs: tuple[Output, ...]
    acc: str
    reduce_axis: str
    before: str | None  # batch axis before the reduce axis in the primary input
    after: str | None  # batch axis after it
    schedule: Schedule
    # Every function call, with where it is written: plan.py refuses the ones a target's
    # compiler lacks (targets.Target.missing), naming the position.
    calls: tuple[tuple[str, Loc], ...] = ()
    # `reduce N1, N2 as N`: the first input's axes reduced together, outer first; reduce_axis
    # is then the merged axis N (length N1*N2, position n1*N2 + n2). Empty: one reduce axis.
    reduce_axes: tuple[str, ...] = ()

    @property
    def primary(self) -> Input:
        return self.inputs[0]

    @property
    def stages(self) -> int:
        return 1 + max(r.stage for r in self.reductions)

    @property
    def mapped(self) -> tuple[Output, ...]:
        """Outputs over the reduce axis (element-wise after every reduction)."""
        return tuple(o for o in self.outputs if o.mapped)

    def local(self, name: str) -> Local:
        return next(v for v in self.locals if v.name == name)

    def reduction(self, name: str) -> Reduction:
        """The reduction that binds `name` (any of its names)."""
        return self.result(name)[0]

    def result(self, name: str) -> tuple[Reduction, int]:
        """The reduction binding `name` and the state component that name is."""
        for r in self.reductions:
            if name in r.names:
                return r, r.spec.results[r.names.index(name)]
        raise KeyError(name)


# --- contractions (redgen/contraction_check.py builds these) -------------------
@dataclass(frozen=True)
class Contraction:
    """`reduce K: s = sum(a * b)`: a reduction over the axis K that two inputs share.

    a is [batch?, M, K]; b is [batch?, K, N] or, stored transposed, [batch?, N, K]
    (`b_nk`, torch's linear weight). The output [batch?, M, N] is `expr`, an
    element-wise epilogue over the sum (Ref("reduce", sum_name)), parameters and
    `epilogue` inputs whose axes are among the output's (addmm's bias[N]).
    """

    name: str
    path: str
    source: str
    digest: str
    a: Input
    b: Input
    epilogue: tuple[Input, ...]
    params: tuple[Param, ...]
    batch: str | None  # an axis both a and b lead with (bmm), else None
    m: str
    n: str
    k: str
    b_nk: bool
    acc: str
    sum_name: str
    sum_loc: Loc
    output: Output
    schedule: Schedule

    @property
    def inputs(self) -> tuple[Input, ...]:
        return (self.a, self.b, *self.epilogue)

    @property
    def reduce_axis(self) -> str:
        return self.k

    @property
    def dtypes(self) -> tuple[str, ...]:
        return self.a.dtypes

    @property
    def outputs(self) -> tuple[Output, ...]:
        return (self.output,)

    @property
    def mapped(self) -> tuple[Output, ...]:
        return ()
# --- end contractions ------------------------------------------------------------


# --- analyses of expressions (the planner and the emitter ask them; no rendering here) ---


def stage_needed(e: E, op: Op) -> int:
    """How many reduction stages must be complete before `e` can be computed."""
    need = 0
    for r in refs(e):
        if r.kind == "reduce":
            need = max(need, op.reduction(r.name).stage + 1)
        elif r.kind == "local":
            need = max(need, stage_needed(op.local(r.name).expr, op))
    return need


def inputs_read(e: E, op: Op) -> list[str]:
    """Inputs an expression reads element-wise, through locals too, in declaration order."""
    found: set[str] = set()

    def walk(x: E) -> None:
        for r in refs(x):
            if r.kind == "input":
                found.add(r.name)
            elif r.kind == "local":
                walk(op.local(r.name).expr)

    walk(e)
    return [i.name for i in op.inputs if i.name in found]


def locals_read(exprs: list[E], op: Op) -> list[Local]:
    """Locals the expressions read (transitively), in definition order."""
    found: set[str] = set()

    def walk(x: E) -> None:
        for r in refs(x):
            if r.kind == "local" and r.name not in found:
                found.add(r.name)
                walk(op.local(r.name).expr)

    for e in exprs:
        walk(e)
    return [v for v in op.locals if v.name in found]


def reductions_read(exprs: list[E], op: Op) -> set[str]:
    """Names of the reductions the expressions read, directly or through locals (a
    reduction binding several names, `(m, s) = softmax_stats(x)`, by its first)."""
    found = {r.name for e in exprs for r in refs(e) if r.kind == "reduce"}
    for v in locals_read(exprs, op):
        found |= {r.name for r in refs(v.expr) if r.kind == "reduce"}
    return {op.reduction(n).name for n in found}


def problems(op: Op) -> list[str]:
    """What is inconsistent in a checked reduction op (empty: nothing). The checker builds
    ops that pass this; tests run it between stages on every shipped spec, so a checker or
    planner change that breaks an invariant the later stages rely on fails there, by name,
    not as a wrong kernel."""
    out: list[str] = []
    names = [x.name for x in (*op.inputs, *op.params, *op.locals, *op.outputs)]
    names += [n for r in op.reductions for n in r.names]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        out.append(f"names bound twice: {', '.join(dup)}")
    axes = {a for i in op.inputs for a in i.axes}
    if op.reduce_axis not in axes and not op.reduce_axes:
        out.append(f"reduce axis {op.reduce_axis} is no input's axis")
    for o in op.outputs:
        missing = [a for a in o.axes if a not in axes and a != op.reduce_axis]
        if missing:
            out.append(f"output {o.name} has axes no input has: {', '.join(missing)}")
    defined_locals: set[str] = set()
    for v in op.locals:
        out += _ref_problems(v.expr, op, defined_locals, f"local {v.name}")
        defined_locals.add(v.name)
    for r in op.reductions:
        out += _ref_problems(r.expr, op, defined_locals, f"reduction {r.name}")
        want = stage_needed(r.expr, op)
        if r.stage != want:
            out.append(f"reduction {r.name} is in stage {r.stage}, but what it reads needs stage {want}")
    for o in op.outputs:
        out += _ref_problems(o.expr, op, defined_locals, f"output {o.name}")
    return out


def _ref_problems(e: E, op: Op, defined_locals: set[str], where: str) -> list[str]:
    known = {"input": {i.name for i in op.inputs}, "param": {p.name for p in op.params},
             "reduce": {n for r in op.reductions for n in r.names}, "local": defined_locals}
    return [f"{where} reads {r.kind} {r.name}, which is not defined before it"
            for r in refs(e) if r.kind in known and r.name not in known[r.kind]]
