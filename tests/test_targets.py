"""Targets are records (redgen/targets.py): what the rest of redgen reads, and that a new
record (here a variant of ascend with a smaller core budget) plans, proves and emits."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from redgen import emit, targets
from redgen.errors import TargetLimit, UnknownTarget
from redgen.pipeline import check_spec, emit_plan, plan_spec, prove_plan
from redgen.verify import certificate as verify
from redgen.verify import empirical

SPEC = "op mean\nin x[M, N, K] : f32\nout y[M, K] : like x\nreduce N: s = sum(x)\ny = s / N\n{extra}"


def _spec(tmp_path: Path, extra: str = "") -> Path:
    p = tmp_path / "mean.red"
    p.write_text(SPEC.format(extra=extra))
    return p


@pytest.mark.parametrize("name", targets.names())
def test_every_record_has_its_templates_and_planner(name: str):
    t = targets.get(name)
    assert t.name == name
    assert (emit.template_root() / t.templates / "module.py.j2").is_file()
    assert callable(targets.planner(name))
    assert dict(t.empirical_paths) and t.empirical_knob


def test_unknown_target_is_coded_and_suggests():
    with pytest.raises(UnknownTarget) as e:
        targets.get("cdua")
    assert e.value.code == "T301" and "did you mean 'cuda'" in e.value.message


def test_device_types_pick_targets():
    assert targets.for_device("cuda") is targets.CUDA
    assert targets.for_device("cpu") is targets.CUDA  # the interpreter runs cuda's kernels
    assert targets.for_device("npu") is targets.ASCEND


def test_checker_leaves_the_core_budget_to_the_target(tmp_path: Path):
    """No `cores` line: the checker records none (it is target-neutral); the ascend planner
    takes its record's default and a counterexample its record's. `cores auto` stays None."""
    op = check_spec(_spec(tmp_path))
    assert op.schedule.cores is None and op.schedule.loc("cores") is None
    a = plan_spec(_spec(tmp_path), "ascend")
    assert a.cores == targets.ASCEND.default_cores
    assert verify.spec_cores(plan_spec(_spec(tmp_path), "cuda")) == targets.CUDA.default_cores
    assert plan_spec(_spec(tmp_path, "cores auto\n"), "ascend").cores is None
    assert plan_spec(_spec(tmp_path, "cores 7\n"), "ascend").cores == 7


def test_a_new_record_is_a_new_target(tmp_path: Path, monkeypatch):
    """A variant record (ascend's planner and templates, 8 cores at most) builds without any
    other change, and its limits are the ones enforced and emitted."""
    small = dataclasses.replace(targets.ASCEND, name="ascend8", default_cores=8, max_cores=8,
                                empirical_paths=(("grid1", 1), ("grid8", 8)), empirical_grids=(1, 8))
    monkeypatch.setitem(targets.TARGETS, small.name, small)
    plan = plan_spec(_spec(tmp_path), "ascend8")
    assert (plan.target, plan.cores) == ("ascend8", 8)
    source = emit_plan(plan, prove_plan(plan))
    assert "\nCORES = 8\n" in source
    case = empirical.case(plan)
    assert (case["knob"], case["paths"], case["grids"]) == ("CORES", {"grid1": 1, "grid8": 8}, [1, 8])
    with pytest.raises(TargetLimit) as e:
        plan_spec(_spec(tmp_path, "cores 40\n"), "ascend8")
    assert e.value.code == "T302" and e.value.message.startswith("ascend8: cores 40 exceeds the 8 vector cores")


def test_empirical_case_forces_the_records_paths(tmp_path: Path):
    cuda = empirical.case(plan_spec(_spec(tmp_path), "cuda"))
    assert (cuda["knob"], cuda["paths"]) == ("SPLIT_BELOW", {"fused": 0, "split": 1 << 62})
    assert "grids" not in cuda and "cores_env" not in cuda
    asc = empirical.case(plan_spec(_spec(tmp_path), "ascend"))
    assert asc["knob"] == "CORES" and asc["grids"] == [1, 8, 40, 48]
    assert asc["cores_env"] == ["REDGEN_ASCEND_CORES", targets.ASCEND.default_cores]
