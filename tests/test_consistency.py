"""Between the stages: every shipped spec's IR and plan pass the cheap consistency checks
(ir.problems, plan.problems), and the checks name what a broken record gets wrong."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from redgen import ir, targets
from redgen import plan as plan_mod
from redgen.pipeline import plan_spec

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "specs").glob("*.red"))


def _reduction_plans():
    for spec in SPECS:
        for target in targets.names():
            p = plan_spec(spec, target)
            if isinstance(p, plan_mod.Plan):
                yield pytest.param(p, id=f"{spec.stem}-{target}")


@pytest.mark.parametrize("plan", list(_reduction_plans()))
def test_shipped_plans_are_consistent(plan):
    assert plan_mod.problems(plan) == []


def test_the_checks_name_what_is_broken():
    plan = plan_spec(ROOT / "specs" / "softmax.red", "cuda")
    op = plan.op
    late = dataclasses.replace(op.reductions[0], stage=3)
    broken = dataclasses.replace(op, reductions=(late, *op.reductions[1:]))
    assert any("stage 3" in p for p in ir.problems(broken))
    twice = dataclasses.replace(op, outputs=(*op.outputs, op.outputs[0]))
    assert any("bound twice" in p for p in ir.problems(twice))
    dangling = dataclasses.replace(op.outputs[0], expr=ir.Ref("local", "nowhere"))
    assert any("local nowhere" in p for p in ir.problems(dataclasses.replace(op, outputs=(dangling,))))
    assert any("no kernel shape" in p for p in plan_mod.problems(dataclasses.replace(plan, kernels=())))


@pytest.mark.parametrize("target", targets.names())
def test_a_build_renders_each_module_once(target):
    """A build renders a module once (pending certificate), runs it, then swaps the certificate's
    text in: the swap must give exactly what a render with the final certificate gives, for
    every shipped spec (the committed module's own record as the final one)."""
    from redgen.pipeline import emit_plan, pending_certificate, prove_plan, with_certificate
    from redgen.verify.recheck import _embedded_certificate

    for spec in SPECS:
        p = plan_spec(spec, target)
        cert = prove_plan(p)
        record = _embedded_certificate(ROOT / "generated" / target / f"{spec.stem}.py")["empirical"]
        final = cert.with_empirical(record)
        swapped = with_certificate(emit_plan(p, pending_certificate(cert)), pending_certificate(cert), final)
        assert swapped is not None and swapped == emit_plan(p, final), spec.stem
