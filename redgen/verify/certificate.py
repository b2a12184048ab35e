"""The certificate of a proof and the words for an order: what is embedded in every generated
module, and how orders, sizes and outputs are spelt in it and in counterexamples.
"""

from __future__ import annotations

import hashlib
import json
import pprint
from dataclasses import asdict, dataclass, field
from pathlib import Path

from redgen import sym, targets
from redgen.plan import Plan

# Sizes the z3 refutation ranges over: every shape symbol (the reduce length and the batch
# sizes alike) and the core budget in 1..2^40. The solver's integer model is the launcher's
# Python arithmetic exactly (sym.py: floor division, cdiv as -(-a // b)).
BOUND = 1 << 40


BOUND_TEXT = "1..2^40"


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
    staged = ("; the rows kernel's fused sweep of them over rows of several chunks of at most "
              "ROWS_OUT_ITEMSIZE-byte elements runs in ROWS_OUT_STAGES software-pipelined stages (tl.range's "
              "num_stages: loads issued ahead of their use): the same loads and stores, in the same "
              "iterations" if plan.rows_out_stages else "")
    return (f"the outputs over the reduce axis {outs}: element-wise, each from its own input elements "
            f"and its row's final totals after every reduction; nothing is combined across elements{split}"
            f"{staged}",)


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
