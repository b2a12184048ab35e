"""The ascend target: plan limits (UB, cores, tile tail), the generated launchers under
upstream Triton's interpreter on CPU (correctness, bitwise batch and grid invariance, the
same bits as the cuda target), and the launcher's errors (torch_npu missing, cores auto).

On a machine with an Ascend NPU, torch_npu and triton-ascend, the NPU tests at the end
run the same checks on the device (see docs/ascend.md); here they are skipped.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from redgen import plan, targets
from redgen.errors import TargetLimit
from redgen.pipeline import build_spec, emit_plan, plan_spec
from redgen.verify import proof as verify

ROOT = Path(__file__).resolve().parent.parent
ERRORS = ROOT / "tests" / "specs" / "errors"
GRIDS = (1, 8, 40, 48)
# Tolerances against a float64 reference (bf16 compared in f32).
TOL = {torch.float32: 1e-4, torch.float16: 1e-3, torch.bfloat16: 1e-3}
DTYPES = tuple(TOL)


def _load(path: Path, name: str, interpret: bool = True):
    """Import a generated module; TRITON_INTERPRET is read when its kernels are decorated."""
    old = os.environ.get("TRITON_INTERPRET")
    if interpret:
        os.environ["TRITON_INTERPRET"] = "1"
    else:
        os.environ.pop("TRITON_INTERPRET", None)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        if old is None:
            os.environ.pop("TRITON_INTERPRET", None)
        else:
            os.environ["TRITON_INTERPRET"] = old
    return mod


@pytest.fixture(autouse=True)
def _interpret(monkeypatch, request):
    """Upstream triton reads TRITON_INTERPRET when a kernel is decorated and again when it
    runs: the whole test runs under the interpreter (CPU tensors), nothing else does.
    With REDGEN_TEST_NPU=1 (on an NPU) the interpreter tests are skipped instead."""
    if _npu_session():
        if {"ascend", "cuda", "auto_mean"} & set(request.fixturenames):
            pytest.skip("an interpreter test; REDGEN_TEST_NPU=1 runs the NPU tests")
        return
    monkeypatch.setenv("TRITON_INTERPRET", "1")


def _npu_session() -> bool:
    return os.environ.get("REDGEN_TEST_NPU") == "1"


@pytest.fixture(scope="module")
def ascend():
    return {op: _load(ROOT / "generated" / "ascend" / f"{op}.py", f"_t_ascend_{op}") for op in ("mean", "sum")}


@pytest.fixture(scope="module")
def cuda():
    return {op: _load(ROOT / "generated" / "cuda" / f"{op}.py", f"_t_cuda_{op}") for op in ("mean", "sum")}


def _grid(mod, cores):
    class _G:
        def __enter__(self):
            self.old, mod.CORES = mod.CORES, cores

        def __exit__(self, *exc):
            mod.CORES = self.old

    return _G()


# --- plan: build-time limits ----------------------------------------------------------
def test_ub_overflow_is_t302_with_bytes_and_line():
    with pytest.raises(TargetLimit) as e:
        plan_spec(ERRORS / "T302_ub_overflow.red", "ascend")
    err = e.value
    assert err.code == "T302"
    assert "229376 bytes" in err.message and "98304 bytes are available" in err.message
    assert err.loc is not None and err.loc.line == 11  # the `tile N = 16384` line
    assert "tile   N = 16384" in err.render()
    # The same spec is fine for cuda: the limit is the ascend target's.
    assert plan_spec(ERRORS / "T302_ub_overflow.red", "cuda").target == "cuda"


def test_ub_overflow_cli_exit_1(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "redgen", "build", str(ERRORS / "T302_ub_overflow.red"), "--target", "ascend",
         "--out", str(tmp_path)], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 1
    assert "error[T302]" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "ascend").exists()


@pytest.mark.parametrize("spec, words", [
    ("T302_too_many_cores.red", "cores 64 exceeds the 48"),
    ("T302_narrow_tail.red", "multiple of 32 bytes"),
])
def test_other_ascend_limits(spec, words):
    with pytest.raises(TargetLimit, match=words):
        plan_spec(ERRORS / spec, "ascend")


def test_plan_fills_ub_and_shares_the_cuda_order():
    for op in ("mean", "sum"):
        a = plan_spec(ROOT / "specs" / f"{op}.red", "ascend")
        c = plan_spec(ROOT / "specs" / f"{op}.red", "cuda")
        assert a.order == c.order  # one order per spec: the same bits on both targets
        assert a.ub.fits and a.ub.live <= plan.ub_live(targets.ASCEND)
        assert not plan.ub_usage(a.op, a.ub.lanes, a.ub.block_rows * 2, direct=a.direct).fits or a.ub.block_rows == plan.MAX_BLOCK_ROWS
        assert a.cores == 40 and "cores" in a.kernels[0].programs.free()
        cert = verify.prove(a)  # the verifier covers the ascend plan unchanged
        assert "cores" in cert.independent_of and cert.target == "ascend"


def test_committed_modules_are_fresh(ascend, monkeypatch):
    """generated/ascend/* is what a build emits now (with the committed empirical record)."""
    monkeypatch.chdir(ROOT)  # the header names the spec path as `redgen build specs/` does
    for op, mod in ascend.items():
        p = plan_spec(Path("specs") / f"{op}.red", "ascend")
        cert = verify.prove(p).with_empirical(mod.CERTIFICATE["empirical"])
        assert emit_plan(p, cert) == (ROOT / "generated" / "ascend" / f"{op}.py").read_text(), op
        assert mod.CERTIFICATE["empirical"]["status"] == "passed"
        assert mod.CERTIFICATE["empirical"]["grids"] == list(GRIDS)


def test_kernel_source_stays_2d_int32_f32():
    src = (ROOT / "generated" / "ascend" / "mean.py").read_text()
    body = src[src.index("@triton.jit"):src.index("_INPUT_DTYPES = {")]
    for banned in ("int64", "float64", "tl.trans", "tl.sum(", "tl.reduce("):
        assert banned not in body, banned
    # every reshape target is 1-D or 2-D
    import re
    for shape in re.findall(r"tl\.reshape\([^,]+, \[([^\]]*)\]", body):
        assert shape.count(",") <= 1, shape


# --- launchers under the interpreter ---------------------------------------------------
CASES = [((5, 3000), 1), ((4, 2100, 3), 1), ((2, 3, 70, 5), (1, 2)), ((7,), 0), ((3, 4), None), ((6, 33), -1)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", ["mean", "sum"])
def test_correct_against_float64(ascend, op, dtype):
    gen = torch.Generator().manual_seed(1)
    ref_fn = getattr(torch, op)
    for shape, dim in CASES:
        x = torch.randn(shape, generator=gen).to(dtype)
        fn = getattr(ascend[op], op)
        y = fn(x, dim)
        y32 = fn(x, dim, dtype=torch.float32)  # the f32 accumulator, unrounded
        ref = ref_fn(x.double(), dim) if dim is not None else ref_fn(x.double())
        assert y.dtype == dtype and y.shape == ref.shape, (shape, dim)
        # A low-precision output is the f32 result rounded once: f16 exactly as torch rounds;
        # bf16 within one ulp (upstream triton's interpreter does not round bf16 to nearest even).
        if dtype == torch.float16:
            assert torch.equal(y, y32.to(dtype)), (shape, dim)
        elif dtype == torch.bfloat16:
            assert torch.all((y.float() - y32).abs() <= y32.abs() * 2.0**-7), (shape, dim)
        # bf16 is compared in f32 (its own 8-bit rounding alone exceeds 1e-3).
        got = y32 if dtype == torch.bfloat16 else y
        scale = 1.0 if op == "mean" else max(1.0, float(ref.abs().max()))
        assert torch.allclose(got.double(), ref, atol=TOL[dtype] * scale, rtol=TOL[dtype]), (shape, dim)


def test_keepdim_dtype_and_noncontiguous(ascend):
    mean = ascend["mean"].mean
    x = torch.randn(6, 40, 9).transpose(0, 2)  # [9, 40, 6], reduce axis not contiguous
    assert torch.allclose(mean(x, 1).double(), x.double().mean(1), atol=1e-5)
    y = mean(x, (0, 2), keepdim=True, dtype=torch.float16)
    assert y.shape == (1, 40, 1) and y.dtype == torch.float16


@pytest.mark.parametrize("op", ["mean", "sum"])
def test_grids_1_8_40_48_identical_bits(ascend, op):
    mod = ascend[op]
    fn = getattr(mod, op)
    gen = torch.Generator().manual_seed(2)
    for shape, dim in [((130, 2085), 1), ((45, 700, 3), 1)]:
        x = torch.randn(shape, generator=gen)
        outs = []
        for g in GRIDS:
            with _grid(mod, g):
                outs.append(fn(x, dim))
        assert all(torch.equal(outs[0], o) for o in outs[1:]), shape


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_batch_invariant_bits(ascend, dtype):
    mean = ascend["mean"].mean
    x = torch.randn(48, 4200, 2, generator=torch.Generator().manual_seed(3)).to(dtype)
    full = mean(x, 1)
    for b in (1, 2, 3, 13, 47):
        assert torch.equal(mean(x[:b], 1), full[:b]), b
    perm = torch.randperm(48, generator=torch.Generator().manual_seed(4))
    assert torch.equal(mean(x[perm], 1), full[perm])
    assert torch.equal(mean(x, 1), full)  # run to run


@pytest.mark.parametrize("op", ["mean", "sum"])
def test_same_bits_as_cuda_target(ascend, cuda, op):
    gen = torch.Generator().manual_seed(5)
    for shape, dim in [((9, 5000), 1), ((4, 2100, 3), 1)]:
        for dtype in DTYPES:
            x = torch.randn(shape, generator=gen).to(dtype)
            assert torch.equal(getattr(ascend[op], op)(x, dim), getattr(cuda[op], op)(x, dim)), (shape, dtype)


# --- launcher errors -----------------------------------------------------------------
def test_missing_torch_npu_says_what_to_install():
    try:
        import torch_npu  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("torch_npu is installed")
    mod = _load(ROOT / "generated" / "ascend" / "mean.py", "_t_ascend_mean_noint", interpret=False)
    with pytest.raises(ImportError, match=r"pip install torch-npu.*TRITON_INTERPRET=1"):
        mod.mean(torch.randn(3, 4), 1)


def test_int32_offsets_guard(ascend):
    mod = ascend["mean"]
    big = torch.empty(3, 2**30, device="meta")
    with pytest.raises(ValueError, match="int32 offsets"):
        mod._rows("mean", "x", big, list(big.stride()) + [1], 3, 2**30, 1)


@pytest.fixture(scope="module")
def auto_mean(tmp_path_factory):
    d = tmp_path_factory.mktemp("auto")
    spec = d / "mean.red"
    spec.write_text((ROOT / "specs" / "mean.red").read_text().replace("cores  40", "cores  auto"))
    built = build_spec(spec, "ascend", empirical=False)
    assert built.plan.cores is None
    (d / "auto_mean.py").write_text(built.source)
    return _load(d / "auto_mean.py", "_t_ascend_auto_mean")


def test_cores_auto_under_interpreter_needs_env(auto_mean, monkeypatch, ascend):
    monkeypatch.delenv("REDGEN_ASCEND_CORES", raising=False)
    x = torch.randn(20, 3000)
    with pytest.raises(RuntimeError, match="REDGEN_ASCEND_CORES"):
        auto_mean.mean(x, 1)
    monkeypatch.setenv("REDGEN_ASCEND_CORES", "zero")
    with pytest.raises(ValueError, match="not a positive integer"):
        auto_mean.mean(x, 1)
    monkeypatch.setenv("REDGEN_ASCEND_CORES", "8")
    assert torch.equal(auto_mean.mean(x, 1), ascend["mean"].mean(x, 1))


def test_cores_auto_failed_query_raises(auto_mean):
    # No NPU driver here: the query fails, loudly, never a silent constant.
    auto_mean._query_cores.cache_clear()
    with pytest.raises(RuntimeError, match="could not query the vector core count"):
        auto_mean._query_cores("mean", 0)


def test_launch_options_dropped_under_interpreter(ascend):
    mod = ascend["mean"]
    assert mod.LAUNCH_OPTIONS == {"multibuffer": True}
    assert mod._launch_options() == {}


# --- on an NPU (skipped without one) -------------------------------------------------
def _npu():
    if os.environ.get("TRITON_INTERPRET") == "1":
        return None
    try:
        import torch_npu  # noqa: F401
    except ImportError:
        return None
    return "npu" if torch.npu.is_available() else None


@pytest.mark.skipif(not _npu_session() or _npu() is None,
                    reason="needs REDGEN_TEST_NPU=1 and an Ascend NPU with torch_npu and triton-ascend")
def test_on_npu_correct_and_invariant():
    mods = {op: _load(ROOT / "generated" / "ascend" / f"{op}.py", f"_t_npu_{op}", interpret=False)
            for op in ("mean", "sum")}
    gen = torch.Generator().manual_seed(6)
    for op, mod in mods.items():
        fn = getattr(mod, op)
        for dtype in DTYPES:
            x = torch.randn(64, 4096, 3, generator=gen).to(dtype)
            xd = x.to("npu")
            ref = getattr(torch, op)(x.double(), 1)
            y = fn(xd, 1).cpu()
            scale = 1.0 if op == "mean" else max(1.0, float(ref.abs().max()))
            assert torch.allclose(y.float().double(), ref, atol=TOL[dtype] * scale, rtol=TOL[dtype])
            for b in (1, 3, 13):
                assert torch.equal(fn(xd[:b], 1).cpu(), y[:b])
            outs = []
            for g in GRIDS:
                with _grid(mod, g):
                    outs.append(fn(xd, 1).cpu())
            assert all(torch.equal(outs[0], o) for o in outs)
