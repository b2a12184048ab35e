"""The whole pipeline as one list of named stages.

    .red text --parse--> syntax --check--> Op --plan(target)--> Plan
        --verify--> Certificate --emit--> source --(empirical)--> export
"""

from __future__ import annotations

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
    return planner(check_spec(path))


def build_spec(path: str | Path, target: str, empirical: bool = True) -> Built:
    """Parse, check, plan, verify and emit one spec; nothing is written."""
    plan = plan_spec(path, target)
    cert = prove(plan)
    source = emit_mod.emit(plan, cert)
    if empirical:
        from .empirical import run_empirical

        cert = cert.with_empirical(run_empirical(plan, source))
    else:
        cert = cert.with_empirical({"status": "skipped (--no-empirical)"})
    source = emit_mod.emit(plan, cert)
    return Built(plan.op, plan, cert, source)


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
