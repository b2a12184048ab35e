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
turned into a readable counterexample by `counterexample.py`. Once the order
is proven independent of the batch, z3 also checks that a chunk holds at
least one element at every reduce length. docs/verifier.md has the details,
including what this proof trusts and does not cover.
"""

from __future__ import annotations

import hashlib
import json
import pprint
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__, combiners, sym, targets
from .errors import BadSplit, BadTile, NotInvariant
from .plan import ORDER_FIELDS, Plan

# Sizes the z3 refutation ranges over: every shape symbol (the reduce length and the batch
# sizes alike) and the core budget in 1..2^40. The solver's integer model is the launcher's
# Python arithmetic exactly (sym.py: floor division, cdiv as -(-a // b)).
BOUND = 1 << 40
BOUND_TEXT = "1..2^40"

# What one combine of each combiner does: redgen/combiners.py (Combiner.rule, .kind). The
# order facts the proof is about (lanes, chunks, tree, chunk combine) are the same for every
# combiner; a combiner whose state is more than one value (an index pair, the online-softmax
# pair) has its combine rule written into the certificate, since that rule is part of what
# makes its result a function of the order alone.


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
    trusted: tuple[str, ...] = ()
    empirical: dict = field(default_factory=lambda: {"status": "not run"})

    def with_empirical(self, result: dict) -> Certificate:
        return Certificate(**{**asdict(self), "empirical": result})

    def to_dict(self) -> dict:
        d = asdict(self)
        d["depends_on"], d["independent_of"] = list(self.depends_on), list(self.independent_of)
        d["not_order_shaping"] = list(self.not_order_shaping)
        d["trusted"] = list(self.trusted)
        return d

    def to_literal(self) -> str:
        """The certificate as a Python literal, for the generated module."""
        return pprint.pformat(self.to_dict(), width=100, sort_dicts=True)

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()

    def lines(self) -> list[str]:
        out = [self.statement, f"proof: {self.method}"]
        out += [f"not order-shaping: {x}" for x in self.not_order_shaping]
        out += [f"trusted: {x}" for x in self.trusted]
        emp = self.empirical
        if emp.get("status") == "passed":
            # Reductions record their reduce lengths by role ({"N": {...}}), contractions one N,
            # attention its key lengths (kv_lengths) and the checks it ran.
            n = emp.get("N", emp.get("kv_lengths"))
            lengths = n if isinstance(n, dict) else ({"N": n} if n is not None else {})
            out.append(f"empirical ({emp['where']}): bitwise equal rows at batch sizes "
                       f"{', '.join(map(str, emp['batch_sizes']))}"
                       + (f" (after the reduce axis: {', '.join(map(str, emp['after_sizes']))})"
                          if len(emp.get("after_sizes", [1])) > 1 else "")
                       + f"; positions {emp['positions']}; run-to-run; dtypes {', '.join(emp['dtypes'])}"
                       + (f"; reduce lengths {', '.join(f'{v} ({k})' for k, v in lengths.items())}" if lengths else "")
                       + (f" as {' x '.join(emp['reduce_axes'])} "
                          + ", ".join(f"{a} x {b}" for a, b in emp["reduce_shapes"].values())
                          if "reduce_shapes" in emp else "")
                       + (f"; checks: {', '.join(emp['checks'])}" if "checks" in emp else "")
                       + (f"; grids {', '.join(map(str, emp['grids']))} programs" if "grids" in emp else "")
                       + (f" ({', '.join(emp['same_as_natural'])}: the natural path's own value, run as it)"
                          if emp.get("same_as_natural") else ""))
            if "reference" in emp:
                out.append(f"empirical: {emp['reference']}")
            if "interpreter" in emp:
                out.append(f"empirical, interpreter work skipped as it cannot change a result: "
                           f"{'; '.join(emp['interpreter'])}")
            if "gpu" in emp:
                out.append(f"empirical, the same check on a GPU ({emp['gpu']['where']}): {emp['gpu']['status']}")
        else:
            out.append(f"empirical: {emp.get('status')}")
        return out


def prove_merged_walk(outer: str, inner: str) -> str:
    """`reduce N1, N2 as N`: z3 proves that position n = n1*N2 + n2 of the merged axis is read
    at (n // N2, n % N2) = (n1, n2), and that every n < N1*N2 lands inside both axes: the walk
    is a bijection, so the order over n is one fixed order over the (n1, n2) elements. Sizes
    as the launcher admits them (N = N1*N2 <= 2^31 - 1, N2 >= 1); n >= 0, so floor and
    truncating division agree. Returns the method text, or raises NotInvariant."""
    import z3

    n1_, n2_, a, b, n = z3.Ints("N1 N2 n1 n2 n")
    bounds = [n1_ >= 1, n2_ >= 1, n1_ * n2_ <= 2**31 - 1]
    for claim in (
        z3.Implies(z3.And(0 <= a, a < n1_, 0 <= b, b < n2_),
                   z3.And((a * n2_ + b) / n2_ == a, (a * n2_ + b) % n2_ == b, a * n2_ + b < n1_ * n2_)),
        z3.Implies(z3.And(0 <= n, n < n1_ * n2_), z3.And(0 <= n / n2_, n / n2_ < n1_, 0 <= n % n2_, n % n2_ < n2_)),
    ):
        solver = z3.Solver()
        solver.set("timeout", 10000)
        solver.add(*bounds, z3.Not(claim))
        if solver.check() != z3.unsat:
            raise NotInvariant(f"could not prove the walk of the merged reduce axes {outer}, {inner} a bijection",
                               None, None)
    return (f"z3: position n = {outer.lower()}*{inner} + {inner.lower()} of the merged axis is read at "
            f"(n // {inner}, n % {inner}), and every n < {outer}*{inner} inside both axes (a bijection; "
            f"{outer}*{inner} < 2^31)")


def _refute(expr: sym.SExpr, keep: set[str], vary: set[str]):
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


_KINDS = {"add": sym.add, "sub": sym.sub, "mul": sym.mul, "floordiv": sym.floordiv, "cdiv": sym.cdiv,
          "min": sym.smin, "max": sym.smax}


def substitute(expr: sym.SExpr, env: dict[str, int]) -> sym.SExpr:
    """`expr` with the symbols of `env` replaced by constants, constants folded."""
    if isinstance(expr, sym.Sym):
        return sym.const(env[expr.name]) if expr.name in env else expr
    if isinstance(expr, sym.Bin):
        return _KINDS[expr.kind](substitute(expr.a, env), substitute(expr.b, env))
    return expr


def text(expr: sym.SExpr) -> str:
    """An expression as a user reads it: '(cores / M)' -> 'cores / M'."""
    out = str(expr)
    if out.startswith("(") and out.endswith(")"):
        depth = 0
        for i, ch in enumerate(out):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0 and i < len(out) - 1:
                return out
        return out[1:-1]
    return out


def outputs_text(plan: Plan) -> str:
    """The output elements the order is about: 'y[m, k]' (index names in lower case)."""
    def one(o) -> str:
        return f"{o.name}[{', '.join(a.lower() for a in o.axes)}]" if o.axes else o.name

    if not plan.op.mapped:
        return ", ".join(one(o) for o in plan.op.outputs)
    # Outputs over the reduce axis combine nothing themselves: the order is the reductions'.
    names = ", ".join(r.name for r in plan.op.reductions)
    return f"every reduction ({names}) behind {', '.join(one(o) for o in plan.op.outputs)}"


def mapped_note(plan: Plan) -> tuple[str, ...]:
    """What the certificate says about outputs over the reduce axis (none: nothing)."""
    op = plan.op
    if not op.mapped:
        return ()
    outs = ", ".join(f"{o.name}[{', '.join(a.lower() for a in o.axes)}]" for o in op.mapped)
    split = (" (the split path writes them with a map kernel over (programs, chunks) from the stored "
             "totals: the same expression on the same totals)" if plan.split_below else "")
    return (f"the outputs over the reduce axis {outs}: element-wise, each from its own input elements "
            f"and its row's final totals after every reduction; nothing is combined across elements{split}",)


def invariant_symbols(plan: Plan) -> tuple[str, ...]:
    """What the order must not depend on: the batch axes, in spec order, then the core budget."""
    return (*plan.batch_symbols, "cores")


def spec_cores(plan: Plan) -> int:
    """The spec's own core budget (the target's default for none or `cores auto`), used to pick
    readable counterexamples."""
    return plan.op.schedule.cores or targets.get(plan.target).default_cores


def spec_path(path: str) -> str:
    """The spec path a certificate records: relative to the working directory when under it."""
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.relative_to(Path.cwd())
        except ValueError:
            pass
    return p.as_posix()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(plan: Plan, env: dict[str, int], lanes: bool = True) -> str:
    """The order at one shape, in words: '40 chunks of 103' (', tiles of 512' with lanes)."""
    o = plan.order
    defaults = {plan.op.reduce_axis: 4096, "cores": spec_cores(plan)}
    full = {s: env.get(s, defaults.get(s, 1)) for s in plan.symbols}
    try:
        chunks, chunk = o.num_chunks.eval(full), o.chunk.eval(full)
        tile = o.lanes.eval(full)
    except ZeroDivisionError:
        return "a division by zero"
    out = f"{_plural(chunks, 'chunk')} of {chunk}"
    return f"{out}, tiles of {tile}" if lanes else out


def _check_divisors(plan: Plan) -> None:
    """No divisor of a launcher expression is zero at any shape: the launcher would raise
    ZeroDivisionError there, and z3 (whose x / 0 is unconstrained) must never reason about it."""
    import z3

    for name in ORDER_FIELDS:
        expr = getattr(plan.order, name)
        for d in sym.divisors(expr):
            if d.is_const():
                continue  # a constant zero divisor is refused by the checker (E107)
            names = sorted(d.free())
            env = {n: z3.Int(n) for n in names}
            solver = z3.Solver()
            solver.set("timeout", 5000)
            for v in env.values():
                solver.add(v >= 1, v <= BOUND)
            solver.add(d.z3(env) == 0)
            verdict = solver.check()
            if verdict == z3.unsat:
                continue
            example = ""
            if verdict == z3.sat:
                model = solver.model()
                at = {n: model.eval(env[n], model_completion=True).as_long() for n in names}
                example = " (it is 0 at " + ", ".join(f"{n}={v}" for n, v in at.items()) + ")"
            raise BadSplit(f"the divisor {text(d)} in {name} = {text(expr)} can be 0 for sizes in "
                           f"{BOUND_TEXT}{example}: the launcher would divide by zero", plan.order.where(name),
                           plan.op.source)


def _check_chunk(plan: Plan, chunk: sym.SExpr) -> None:
    """A chunk must hold at least one element at every reduce length (else the split divides by zero)."""
    import z3

    axis = plan.op.reduce_axis
    names = sorted(chunk.free())
    env = {n: z3.Int(n) for n in names}
    solver = z3.Solver()
    solver.set("timeout", 5000)
    for v in env.values():
        solver.add(v >= 1, v <= BOUND)
    solver.add(chunk.z3(env) < 1)
    if solver.check() == z3.unsat:
        return
    example = ""
    if solver.check() == z3.sat:
        model = solver.model()
        at = {n: model.eval(env[n], model_completion=True).as_long() for n in names}
        shown = ", ".join(f"{n}={v}" for n, v in at.items())
        example = f" (at {shown} it is {chunk.eval(at)})" if shown else f" (it is {chunk.eval(at)})"
    raise BadSplit(f"the chunk length {text(chunk)} must be at least 1 for every {axis} in {BOUND_TEXT}{example}",
                   plan.order.where("chunk"), plan.op.source)


def trusted(target: str) -> tuple[str, ...]:
    """The compiler facts a certificate for `target` rests on (docs/verifier.md, "Trusted")."""
    return (
        f"no FMA contraction: every kernel launch passes enable_fp_fusion=False ({targets.get(target).fusion_trust})",
        "the compiler keeps the written order of every combine (no reassociation) and compiles the same "
        "element expression to the same instructions in every kernel variant (division, sqrt, exp and log "
        "may be approximate, but alike on every path and batch size)",
        f"sizes in {BOUND_TEXT} for the z3 refutation (free-symbol analysis has no bound)",
    )


def prove(plan: Plan) -> Certificate:
    """Prove `plan` batch invariant, or raise NotInvariant with a counterexample."""
    from .counterexample import find_counterexample

    if getattr(plan, "attention", False):  # --- attention (redgen/attention_verify.py) ---
        from .attention_verify import prove_attention

        return prove_attention(plan)
    o = plan.order
    reduce_axis = plan.op.reduce_axis
    independent = invariant_symbols(plan)
    forbidden = set(independent)
    _check_divisors(plan)
    by_z3 = []  # (field, expression) the solver had to settle
    for name in ORDER_FIELDS:
        expr = getattr(o, name)
        bad = expr.free() & forbidden
        if not bad:
            continue
        verdict = _refute(expr, keep={reduce_axis}, vary=bad)
        if verdict is None:
            by_z3.append((name, expr))
            continue
        raise find_counterexample(plan, name, expr, bad, verdict)
    if by_z3:
        method = (f"z3 refutation: for {', '.join(f'{n} = {text(e)}' for n, e in by_z3)}, no two shapes with "
                  f"the same {reduce_axis} give different values (sizes {BOUND_TEXT}); "
                  f"the other order-shaping values are expressions over {reduce_axis} alone")
    else:
        method = f"free-symbol analysis: every order-shaping value is an expression over {reduce_axis} alone"
    if plan.op.reduce_axes:
        method += "; " + prove_merged_walk(*plan.op.reduce_axes)
    if not o.lanes.is_const():
        loc = o.where("lanes")
        raise BadTile(f"the reduce tile must be a constant power of two, got {o.lanes}", loc, plan.op.source)
    if o.atomic:
        raise NotInvariant("partials are combined with atomics: their order depends on scheduling",
                           o.where("chunk"), plan.op.source)
    unknown = [c for c in o.combiners if c not in combiners.COMBINERS or combiners.get(c).kind not in combiners.KINDS]
    if unknown:
        raise NotInvariant(f"combiner {unknown[0]!r} has no known combine rule: its order cannot be certified",
                           o.where("chunk"), plan.op.source)
    # Combiners beyond one value: their combine rule is stated (value-only certificates stay short).
    arg = sorted({c for c in o.combiners if combiners.get(c).kind != "value"})
    # Proven independent of the batch symbols and cores: pin them (to 1) for a readable statement.
    pin = dict.fromkeys(independent, 1)
    chunk = substitute(o.chunk, pin)
    _check_chunk(plan, chunk)
    lanes = o.lanes.eval({})
    outs = outputs_text(plan)
    if o.split_kind == "fixed_size":
        offsets = (f"0, {chunk.value}, {2 * chunk.value}" if isinstance(chunk, sym.Const)
                   else f"0, {text(chunk)}, 2*({text(chunk)})")
        where = ("the element's offset alone" if isinstance(chunk, sym.Const)
                 else f"the element's offset and {reduce_axis}")
        chunk_words = (f"chunks of {text(chunk)} at absolute offsets {offsets}, ... combined left to right "
                       f"(chunk boundaries depend on {where})")
    elif o.split_kind == "fixed_count":
        count = substitute(sym.smax(sym.const(1), plan.op.schedule.split.value), pin)
        many = "one chunk" if count == sym.const(1) else f"up to {text(count)} chunks"
        chunk_words = (f"{many} of {text(chunk)} combined left to right: batch invariant, "
                       f"but the chunk boundaries move with {reduce_axis}, unlike fixed_size")
    else:
        chunk_words = f"one chunk of {reduce_axis} elements"
    ra = plan.op.reduce_axes
    merged = (f"{reduce_axis} = {'*'.join(ra)} merged positions, ({', '.join(ra)}) at "
              f"n = {ra[0].lower()}*{ra[1]} + {ra[1].lower()}; " if ra else "")
    statement = merged + (
        f"order of {outs}: {reduce_axis} in tiles of {lanes}, {chunk_words}; inside a chunk lane j combines "
        f"elements j, j+{lanes}, ... in order, the {lanes} lanes meet in a pairwise tree, in {o.acc}; "
        f"independent of {', '.join(independent)}"
    ) + "".join(f"; {c} combines {combiners.get(c).rule}" for c in arg)
    batch = ", ".join(plan.batch_symbols) or "none"
    kinds = ", ".join(sorted(k.name for k in plan.kernels))
    order = {
        "lanes": lanes, "chunk": str(o.chunk), "num_chunks": str(o.num_chunks), "tree": o.tree,
        "chunk_combine": o.chunk_combine, "acc": o.acc, "combiners": list(o.combiners),
        "stages": o.stages, "split": o.split_kind, "atomic": o.atomic,
    }
    if arg:  # (kept out of value-only certificates, which stay as they were)
        order["combine_rules"] = {c: combiners.get(c).rule for c in arg}
        order["combiner_kinds"] = {c: combiners.get(c).kind for c in arg}
    return Certificate(
        op=plan.op.name, target=plan.target, spec=spec_path(plan.op.path), spec_sha256=plan.op.digest,
        redgen=__version__, order=order, depends_on=(reduce_axis,), independent_of=independent,
        method=method,
        not_order_shaping=(
            *((f"the walk of the reduce axes {', '.join(ra)}: {plan.copy_rule}; the merged position and "
               f"so the order are the same",) if ra else ()),
            f"kernel shapes ({kinds}), their blocks and num_warps: the lane tree is explicit",
            f"fused vs split path (split below {plan.split_below} batch programs): same chunk code, "
            f"same left-to-right chunk combine",
            "index width (WIDE: int64 index arithmetic where the launcher's sizes could pass 2**31 - 1, "
            "else int32) and grids cut in slices of 2**31 - 1 programs: integer offsets only, the same "
            "floating-point operations in the same order",
            *mapped_note(plan),
            f"batch axes ({batch}) and the core budget: they only pick which program reduces a row",
        ) if plan.notes is None else (
            *((f"the walk of the reduce axes {', '.join(ra)}: {plan.copy_rule.split(': ')[0]}; the merged "
               f"position and so the order are the same",) if ra else ()),
            *plan.notes,
            *mapped_note(plan),
            f"batch axes ({batch}) and the core budget: they only pick which program reduces a row",
        ),
        statement=statement,
        trusted=trusted(plan.target),
    )
