"""The whole pipeline as one list of named stages.

    .red text --parse--> syntax --check--> Op --plan(target)--> Plan
        --verify--> Certificate --emit--> source --(empirical)--> export
"""

from __future__ import annotations

import ast
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import check as check_mod
from . import emit as emit_mod
from . import ir, parse, targets
from .errors import RedgenError
from .plan import Plan
from .verify import Certificate, prove


@dataclass(frozen=True)
class Built:
    op: ir.Op
    plan: Plan
    certificate: Certificate
    source: str


def check_spec(path: str | Path) -> ir.Op:
    return check_mod.check(parse.parse_file(path))


def plan_spec(path: str | Path, target: str) -> Plan:
    planner = targets.planner(target)
    op = check_spec(path)
    if isinstance(op, ir.Contraction):  # contractions: redgen/contraction*.py
        from .contraction import plan_contraction

        return plan_contraction(op, target)
    return planner(op)


def prove_plan(plan):
    from .contraction import ContractionPlan, prove_contraction

    return prove_contraction(plan) if isinstance(plan, ContractionPlan) else prove(plan)


def _emit(plan, cert) -> str:
    from .contraction import ContractionPlan
    from .contraction_emit import emit_contraction

    return emit_contraction(plan, cert) if isinstance(plan, ContractionPlan) else emit_mod.emit(plan, cert)


def _run_empirical(plan, source: str) -> dict:
    from .contraction import ContractionPlan

    if isinstance(plan, ContractionPlan):
        from .contraction_empirical import run_contraction_empirical

        return run_contraction_empirical(plan, source)
    from .empirical import run_empirical

    return run_empirical(plan, source)


def build_spec(path: str | Path, target: str, empirical: bool | dict = True) -> Built:
    """Parse, check, plan, verify and emit one spec; nothing is written.

    `empirical`: True runs the interpreter check on the emitted kernels, False
    records that it was skipped, a dict is a record to reuse (`build --check
    --reuse-empirical`: the committed module's own record, so that only the
    interpreter run is not repeated).
    """
    return build_specs([path], target, [empirical])[0]


def build_specs(paths: list[Path], target: str, empirical: list[bool | dict]) -> list[Built]:
    """build_spec for several specs: proofs in this thread (z3 is not thread-safe),
    the interpreter runs (subprocesses) side by side, one per core."""
    plans = [plan_spec(p, target) for p in paths]
    certs = [prove_plan(plan) for plan in plans]
    runs = [i for i, e in enumerate(empirical) if e is True]
    records: dict[int, dict] = {}
    if runs:
        def run(i: int) -> dict:
            return _run_empirical(plans[i], _emit(plans[i], certs[i]))

        with ThreadPoolExecutor(max_workers=max(1, min(len(runs), os.cpu_count() or 1))) as pool:
            records = dict(zip(runs, pool.map(run, runs), strict=True))
    built = []
    for i, (plan, cert) in enumerate(zip(plans, certs, strict=True)):
        e = empirical[i]
        record = e if isinstance(e, dict) else records.get(i, {"status": "skipped (--no-empirical)"})
        cert = cert.with_empirical(record)
        built.append(Built(plan.op, plan, cert, _emit(plan, cert)))
    return built


def spec_files(arg: str | Path) -> list[Path]:
    """A spec file, or every *.red in a directory (sorted)."""
    p = Path(arg)
    if p.is_dir():
        found = sorted(p.glob("*.red"))
        if not found:
            raise RedgenError(f"no .red specs in directory '{p}'")
        return found
    if not p.exists():
        raise RedgenError(f"no such spec file or directory: '{p}'")
    return [p]


def module_path(out: Path, target: str, op: str) -> Path:
    return out / target / f"{op}.py"


def committed_certificate(path: Path) -> dict | None:
    """The CERTIFICATE literal of a generated module, read without importing it."""
    if not path.exists():
        return None
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["CERTIFICATE"]:
            return ast.literal_eval(node.value)
    return None
