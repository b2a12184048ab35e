"""Stage 4: Plan -> Certificate, or a NotInvariant error with a counterexample.

What is proven: for every output element, the floating-point combine order
is fixed by `plan.order` -- lanes, chunk length, number of chunks (symbolic),
the explicit pairwise lane tree, left-to-right chunk combine and the
accumulator dtype. Kernel shapes, blocks, warps, grids and the fused/split
choice are not order-shaping: rows are reduced independently, the lane tree
is written out (not left to the layout-dependent tl.sum), and both paths run
the same per-chunk code and the same chunk combine sequence.

How: each order-shaping expression must be a function of the reduce length
alone. Free-symbol analysis settles most plans at once; an expression that
mentions a batch size or the core budget is handed to z3, which either
proves it constant in those symbols (the refutation "two assignments with the
same reduce length and different values" is unsatisfiable) or yields a model,
turned into a readable counterexample by `counterexample.py`.
"""

from __future__ import annotations

import hashlib
import json
import pprint
from dataclasses import asdict, dataclass, field

from . import __version__
from . import sym as S
from .errors import BadTile, NotInvariant
from .plan import ORDER_FIELDS, Plan

BOUND = 1 << 20  # sizes the z3 refutation ranges over (positive, up to a million)


@dataclass(frozen=True)
class Certificate:
    op: str
    target: str
    spec: str
    spec_sha256: str
    redgen: str
    order: dict
    depends_on: tuple[str, ...]
    independent_of: tuple[str, ...]
    method: str
    not_order_shaping: tuple[str, ...]
    statement: str
    empirical: dict = field(default_factory=lambda: {"status": "not run"})

    def with_empirical(self, result: dict) -> "Certificate":
        return Certificate(**{**asdict(self), "empirical": result})

    def to_dict(self) -> dict:
        d = asdict(self)
        d["depends_on"], d["independent_of"] = list(self.depends_on), list(self.independent_of)
        d["not_order_shaping"] = list(self.not_order_shaping)
        return d

    def to_literal(self) -> str:
        """The certificate as a Python literal, for the generated module."""
        return pprint.pformat(self.to_dict(), width=100, sort_dicts=True)

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()

    def lines(self) -> list[str]:
        out = [self.statement, f"proof: {self.method}"]
        out += [f"not order-shaping: {x}" for x in self.not_order_shaping]
        emp = self.empirical
        if emp.get("status") == "passed":
            out.append(f"empirical ({emp['where']}): bitwise equal rows at batch sizes "
                       f"{', '.join(map(str, emp['batch_sizes']))}; positions {emp['positions']}; "
                       f"run-to-run; dtypes {', '.join(emp['dtypes'])}"
                       + (f"; grids {', '.join(map(str, emp['grids']))} programs" if "grids" in emp else ""))
        else:
            out.append(f"empirical: {emp.get('status')}")
        return out


def _refute(expr: S.SExpr, keep: set[str], vary: set[str]):
    """z3: a model with equal `keep` symbols, different `vary` symbols and different values, or None."""
    import z3

    names = sorted(expr.free())
    a = {n: z3.Int(f"{n}_1") for n in names}
    b = {n: (a[n] if n in keep else z3.Int(f"{n}_2")) for n in names}
    solver = z3.Solver()
    solver.set("timeout", 5000)
    for v in {*a.values(), *b.values()}:
        solver.add(v >= 1, v <= BOUND)
    solver.add(expr.z3(a) != expr.z3(b))
    verdict = solver.check()
    if verdict == z3.unsat:
        return None
    if verdict == z3.sat:
        model = solver.model()
        env1 = {n: model.eval(a[n], model_completion=True).as_long() for n in names}
        env2 = {n: model.eval(b[n], model_completion=True).as_long() for n in names}
        return env1, env2
    return "unknown"


def describe(plan: Plan, env: dict[str, int]) -> str:
    """The order at one shape, in words: '40 chunks of 103'."""
    o = plan.order
    full = {s: env.get(s, 1) for s in (*plan.symbols,)}
    try:
        chunks, chunk = o.num_chunks.eval(full), o.chunk.eval(full)
        lanes = o.lanes.eval(full)
    except ZeroDivisionError:
        return "division by zero"
    return f"{chunks} chunks of {chunk}, lanes of {lanes}"


def prove(plan: Plan) -> Certificate:
    """Prove `plan` batch invariant, or raise NotInvariant with a counterexample."""
    from .counterexample import find_counterexample

    o = plan.order
    reduce_axis = plan.op.reduce_axis
    forbidden = {*plan.batch_symbols, "cores"}
    method = "free-symbol analysis: every order-shaping value is an expression over " + reduce_axis + " alone"
    for name in ORDER_FIELDS:
        expr = getattr(o, name)
        bad = expr.free() & forbidden
        if not bad:
            continue
        verdict = _refute(expr, keep={reduce_axis}, vary=bad)
        if verdict is None:
            method = ("z3 refutation: no two shapes with the same " + reduce_axis
                      + " give different order-shaping values (sizes 1.." + str(BOUND) + ")")
            continue
        raise find_counterexample(plan, name, expr, bad, verdict)
    if not o.lanes.is_const():
        loc = o.where("lanes")
        raise BadTile(f"the reduce tile must be a constant power of two, got {o.lanes}", loc, plan.op.source)
    if o.atomic:
        raise NotInvariant("partials are combined with atomics: their order depends on scheduling",
                           o.where("chunk"), plan.op.source)
    batch = ", ".join(plan.batch_symbols) or "none"
    kinds = ", ".join(sorted(k.name for k in plan.kernels))
    lanes = o.lanes.eval({})
    chunk_words = {
        "fixed_size": f"chunks of {o.chunk} at absolute offsets 0, {o.chunk}, 2*{o.chunk}, ...",
        "fixed_count": f"{o.num_chunks} chunks of {o.chunk} elements: invariant in the batch, but the "
                       f"chunk boundaries move with {reduce_axis} (unlike fixed_size)",
        "none": f"one chunk of {o.chunk} elements",
    }[o.split_kind]
    out_axes = ", ".join(a.lower() for a in plan.batch_symbols)
    statement = (
        f"order of each output [{out_axes}]: {reduce_axis} in {chunk_words}; in a chunk lane j of {lanes} "
        f"combines elements j, j+{lanes}, ... in order, lanes by a pairwise tree, chunk partials left to "
        f"right from the identity, in {o.acc}; independent of {', '.join(sorted(forbidden))}"
    )
    order = {
        "lanes": lanes, "chunk": str(o.chunk), "num_chunks": str(o.num_chunks), "tree": o.tree,
        "chunk_combine": o.chunk_combine, "acc": o.acc, "combiners": list(o.combiners),
        "stages": o.stages, "split": o.split_kind, "atomic": o.atomic,
    }
    return Certificate(
        op=plan.op.name, target=plan.target, spec=plan.op.path, spec_sha256=plan.op.digest,
        redgen=__version__, order=order, depends_on=(reduce_axis,), independent_of=tuple(sorted(forbidden)),
        method=method,
        not_order_shaping=(
            f"kernel shapes ({kinds}), their blocks and num_warps: the lane tree is explicit",
            f"fused vs split path (split below {plan.split_below} batch programs): same chunk code, "
            f"same left-to-right chunk combine",
            f"batch axes ({batch}) and the core budget: they only pick which program reduces a row",
        ) if plan.notes is None else (
            *plan.notes,
            f"batch axes ({batch}) and the core budget: they only pick which program reduces a row",
        ),
        statement=statement,
    )
