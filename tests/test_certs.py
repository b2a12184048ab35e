"""Certificates that hold for the code that runs (issue 10): the solver's arithmetic is
the launcher's, every launch forbids FMA contraction, the certificate says what it
trusts, and the empirical check compares with the spec's meaning (redgen.reference),
so a consistently wrong kernel fails it."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
import torch
import z3

from redgen import sym
from redgen.errors import EmpiricalMismatch
from redgen.pipeline import build_spec, check_spec, plan_spec
from redgen.reference import evaluate
from redgen.verify.certificate import BOUND
from redgen.verify.empirical import run_empirical
from redgen.verify.proof import prove

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("kind", ["floordiv", "cdiv", "min", "max", "add", "sub", "mul"])
def test_evaluation_printed_python_and_z3_agree_with_negative_operands(kind):
    e = sym.Bin(kind, sym.Sym("a"), sym.Sym("b"))
    a_, b_ = z3.Int("a"), z3.Int("b")
    model = e.z3({"a": a_, "b": b_})
    for a, b in itertools.product(range(-9, 10), range(-5, 6)):
        if b == 0 and kind in ("floordiv", "cdiv"):
            continue
        value = e.eval({"a": a, "b": b})
        printed = eval(e.py({"a": "a", "b": "b"}), {"min": min, "max": max}, {"a": a, "b": b})  # noqa: S307
        solved = z3.simplify(z3.substitute(model, (a_, z3.IntVal(a)), (b_, z3.IntVal(b)))).as_long()
        assert value == printed == solved, (kind, a, b, value, printed, solved)


def test_the_refutation_bound_covers_sizes_up_to_2_to_the_40():
    assert BOUND == 1 << 40
    cert = prove(plan_spec(REPO / "specs" / "mean.red", "cuda"))
    assert any("1..2^40" in t for t in cert.trusted)


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_every_kernel_launch_forbids_fp_contraction(target):
    src = build_spec(REPO / "specs" / "layer_norm.red", target, empirical=False).source
    tree = ast.parse(src)
    launches = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)]
    assert launches
    for call in launches:
        kws = {k.arg: k.value for k in call.keywords}
        if "enable_fp_fusion" in kws:
            assert isinstance(kws["enable_fp_fusion"], ast.Constant) and kws["enable_fp_fusion"].value is False
        else:  # cuda passes it through `consts`
            assert None in kws and "enable_fp_fusion=False" in src.split("consts = dict(")[1].split("\n")[0]
    cert = build_spec(REPO / "specs" / "layer_norm.red", target, empirical=False).certificate
    assert any("enable_fp_fusion=False" in t for t in cert.trusted)


def test_reference_is_the_specs_meaning():
    op = check_spec(REPO / "specs" / "layer_norm.red")
    x, w, b = torch.randn(3, 50), torch.randn(50), torch.randn(50)
    out = evaluate(op, {op.inputs[0].name: x, op.inputs[1].name: w, op.inputs[2].name: b}, keepdim=True)
    xd = x.double()
    m = xd.mean(1, keepdim=True)
    v = ((xd - m) ** 2).mean(1, keepdim=True)
    y = next(o.name for o in op.outputs if o.mapped)
    torch.testing.assert_close(out[y], (xd - m) / torch.sqrt(v + 1e-5) * w.double() + b.double())


def test_empirical_check_fails_a_consistently_wrong_kernel(tmp_path):
    spec = tmp_path / "small_mean.red"
    spec.write_text("op small_mean\nin x[M, N] : f32\nout y[M] : like x\nacc f32\nreduce N: s = sum(x)\n"
                    "y = s / N\ntile N = 16\nsplit N fixed_size 64\n")
    built = build_spec(spec, "cuda", empirical=False)
    assert "(r_0_tot / N)" in built.source
    record = run_empirical(built.plan, built.source)  # the right kernel passes, against the reference
    assert record["status"] == "passed" and "redgen.reference" in record["reference"]
    wrong = built.source.replace("(r_0_tot / N)", "(r_0_tot / (N + 1))")  # invariant, but not the spec
    with pytest.raises(EmpiricalMismatch, match="float64 reference"):
        run_empirical(built.plan, wrong)


def test_empirical_check_compares_the_row_kernel_with_the_chunked_walks(tmp_path):
    """cuda's row kernel (a row held on chip) is the natural path of short rows; the forced
    paths run with it off, so a row kernel that rounds otherwise than the chunked kernels is
    caught, even though it is batch invariant and accurate on its own."""
    spec = tmp_path / "small_norm.red"
    spec.write_text("op small_norm\nin x[M, N] : f32\nout y[M, N] : like x\nacc f32\nreduce N: ss = sum(x * x)\n"
                    "y = x * rsqrt(ss / N + 0.000001)\ntile N = 16\nsplit N fixed_size 64\n")
    built = build_spec(spec, "cuda", empirical=False)
    # the reduction takes a held tile (of TILE lanes: LANES, or fewer at rows of at most LANES // 2)
    held = "in_0_v = _widen(in_0_t[c * CT + u], PACK, BLOCK, TILE, in_0_ptr)"
    assert built.plan.row_tiles == 128 and held in built.source  # 32768 // 16 lanes, capped: unrolled code
    assert run_empirical(built.plan, built.source)["status"] == "passed"
    wrong = built.source.replace(held, held + " * 1.0000001", 1)
    with pytest.raises(EmpiricalMismatch, match="differ"):
        run_empirical(built.plan, wrong)


def test_a_present_gpu_reruns_the_empirical_check_there(monkeypatch):
    """On a machine with a GPU the interpreter check is repeated on it (compiled kernels: FMA
    contraction and instruction selection), and the certificate records both runs."""
    from redgen.pipeline import plan_spec
    from redgen.verify import empirical

    calls = []

    def fake_worker(plan, source, extra_env):
        calls.append(dict(extra_env))
        where = "GPU" if extra_env.get("REDGEN_EMPIRICAL_DEVICE") == "cuda" else "triton interpreter (CPU)"
        return {"status": "passed", "where": where, "calls": 3}

    monkeypatch.setattr(empirical, "_run_worker", fake_worker)
    monkeypatch.setattr(empirical, "_device_present", lambda device_type: True)
    plan = plan_spec(REPO / "specs" / "mean.red", "cuda")
    record = empirical.run_empirical(plan, "source")
    assert calls == [{"TRITON_INTERPRET": "1"}, {"TRITON_INTERPRET": "0", "REDGEN_EMPIRICAL_DEVICE": "cuda"}]
    assert record["gpu"] == {"status": "passed", "where": "GPU", "calls": 3}
    calls.clear()
    empirical.run_empirical(plan_spec(REPO / "specs" / "mean.red", "ascend"), "source")
    assert calls == [{"TRITON_INTERPRET": "1"}]  # an NPU kernel is not run on the GPU
    monkeypatch.undo()
    monkeypatch.setenv("REDGEN_NO_GPU", "1")
    assert empirical._device_present("cuda") is False
