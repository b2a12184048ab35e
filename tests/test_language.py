"""The language's extensions (issue 14) and the shipped specs that use them.

- element-wise functions (tanh, sigmoid, silu, erf), comparisons, `where`, `**`: the
  example tests/specs/examples/functions.red, built for both targets into a temporary
  directory, against a float64 evaluation of its IR (tests/ir_reference.py, which reads
  the same function table as the checker and the emitter);
- fp8 outputs: fp8_quant / fp8_quant_e5m2 bit for bit against torch doing the same
  computation in float32 (and the rounding alone, on a dense grid of values);
- fused residual add + rms_norm, cross-entropy and nll_loss (gathers by an integer
  input, ignore_index), nansum (a masked sum), vector_norm (a float power);
- a mean over two non-adjacent axes (the launcher merges them);
- batch invariance bit for bit (torch.equal) on every cuda path and several ascend grids;
- coded errors for each misuse; batch-invariant mode's new routes.

Kernels run under the Triton interpreter (CPU); accuracy at tests/tolerances.py.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F  # noqa: N812

import redgen
from generated.ascend import add_rms_norm as a_add_rms_norm
from generated.ascend import cross_entropy as a_cross_entropy
from generated.ascend import fp8_quant as a_fp8_quant
from generated.ascend import fp8_quant_e5m2 as a_fp8_quant_e5m2
from generated.ascend import mean as a_mean
from generated.ascend import nansum as a_nansum
from generated.ascend import nll_loss as a_nll_loss
from generated.ascend import vector_norm as a_vector_norm
from generated.cuda import add_rms_norm as c_add_rms_norm
from generated.cuda import cross_entropy as c_cross_entropy
from generated.cuda import fp8_quant as c_fp8_quant
from generated.cuda import fp8_quant_e5m2 as c_fp8_quant_e5m2
from generated.cuda import mean as c_mean
from generated.cuda import nansum as c_nansum
from generated.cuda import nll_loss as c_nll_loss
from generated.cuda import vector_norm as c_vector_norm
from redgen import emit, errors, functions
from redgen import targets as rg_targets
from redgen.cli import main
from redgen.errors import RedgenError
from redgen.pipeline import check_spec, plan_spec
from redgen.runtime import mode
from tests.ir_reference import evaluate
from tests.tolerances import assert_accurate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "specs" / "examples" / "functions.red"
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
MODS = {
    "cuda": {"add_rms_norm": c_add_rms_norm, "cross_entropy": c_cross_entropy, "fp8_quant": c_fp8_quant,
             "fp8_quant_e5m2": c_fp8_quant_e5m2, "mean": c_mean, "nansum": c_nansum, "nll_loss": c_nll_loss,
             "vector_norm": c_vector_norm},
    "ascend": {"add_rms_norm": a_add_rms_norm, "cross_entropy": a_cross_entropy, "fp8_quant": a_fp8_quant,
               "fp8_quant_e5m2": a_fp8_quant_e5m2, "mean": a_mean, "nansum": a_nansum, "nll_loss": a_nll_loss,
               "vector_norm": a_vector_norm},
}
# (target, knob, value): every way a row can be computed (cuda: fused/split; ascend: grids)
VARIANTS = [("cuda", "SPLIT_BELOW", 0), ("cuda", "SPLIT_BELOW", 1 << 62), ("ascend", "CORES", 1),
            ("ascend", "CORES", 8)]
VARIANT_IDS = ["cuda-fused", "cuda-split", "ascend-grid1", "ascend-grid8"]
FP8 = {"fp8_quant": (torch.float8_e4m3fn, 448.0), "fp8_quant_e5m2": (torch.float8_e5m2, 57344.0)}


def randn(*shape, dtype=torch.float32, seed: int = 0, scale: float = 1.0) -> torch.Tensor:
    return (torch.randn(*shape, generator=torch.Generator().manual_seed(seed)) * scale).to(dtype)


def targets(seed: int, *shape: int, classes: int) -> torch.Tensor:
    return torch.randint(0, classes, shape, generator=torch.Generator().manual_seed(seed))


def same(a, b) -> bool:
    """Bitwise equality of results (tuples too); fp8 compared as bytes."""
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return all(torch.equal(x.view(torch.uint8), y.view(torch.uint8)) if x.dtype.itemsize == 1 and
               x.is_floating_point() else torch.equal(x, y) for x, y in zip(a, b, strict=True))


def rows(res, b: int):
    return tuple(r[:b] for r in res) if isinstance(res, tuple) else res[:b]


@pytest.fixture(params=VARIANTS, ids=VARIANT_IDS)
def variant(request, monkeypatch):
    """The new modules of one target with one path/grid forced (restored afterwards)."""
    target, knob, value = request.param
    for mod in MODS[target].values():
        monkeypatch.setattr(mod, knob, value)
    return MODS[target]


# --- element-wise functions, comparisons, where, ** -------------------------------------------------
@pytest.fixture(scope="module", params=["cuda", "ascend"])
def functions_mod(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    assert main(["build", str(EXAMPLE), "--target", request.param, "--out", str(out), "--no-empirical"]) == 0
    spec = importlib.util.spec_from_file_location(f"_lang_functions_{request.param}",
                                                  out / request.param / "functions.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # triton reads kernel source through the module
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop(spec.name, None)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_functions_match_float64(functions_mod, dtype):
    x, w = randn(5, 300, dtype=dtype), randn(300, dtype=dtype, seed=1)
    x[0, :8] = torch.tensor([0.0, 1e-5, -1e-5, 0.5, -1.0, -2.0, 20.0, -30.0], dtype=dtype)  # edges
    w[3] = x[0, 3]  # one x == w hit
    got = functions_mod.functions(x, w, dim=-1)
    ref = evaluate(check_spec(EXAMPLE), {"x": x, "w": w})
    names = list(functions_mod.OUTPUTS)
    assert len(got) == len(names) == len(ref)
    for name, g in zip(names, got, strict=True):
        assert_accurate(g.reshape(ref[name].shape), ref[name], dtype)
    assert torch.equal(got[names.index("e")].reshape(-1), (x > 0).sum(-1).float())  # counts are exact


def test_functions_batch_invariant(functions_mod, monkeypatch):
    x, w = randn(7, 300, seed=3), randn(300, seed=4)
    knob, values = ("SPLIT_BELOW", (0, 1 << 62)) if hasattr(functions_mod, "SPLIT_BELOW") else ("CORES", (1, 8))
    for v in values:
        monkeypatch.setattr(functions_mod, knob, v)
        full = functions_mod.functions(x, w, dim=-1)
        for b in (1, 2, 5):
            assert same(functions_mod.functions(x[:b], w, dim=-1), rows(full, b)), (knob, v, b)


def test_function_table_is_the_one_every_reader_uses():
    # The checker's names, the emitter's rendering and the tests' reference come from one table.
    from redgen import ir

    assert set(ir.FUNCTIONS) == set(functions.FUNCTIONS)
    for name, f in functions.FUNCTIONS.items():
        assert f.arity == ir.FUNCTIONS[name]
        functions.reference(name)  # has a float64 reference
    assert functions.fold("tanh", [0.5]) == pytest.approx(0.46211715726000974)
    assert functions.fold("lt", [1.0, 2.0]) == 1.0 and functions.fold("powi", [-2.0, 3.0]) == -8.0


# --- fp8 outputs -----------------------------------------------------------------------------------
def _fp8_ref(x: torch.Tensor, fp8: torch.dtype, fmax: float) -> tuple[torch.Tensor, torch.Tensor]:
    """vLLM's per-token quantization in float32, cast by torch."""
    xf = x.float()
    s = torch.clamp(xf.abs().amax(-1, keepdim=True) / fmax, min=1.0 / (fmax * 512))
    return (xf / s).clamp(-fmax, fmax).to(fp8), s


@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("op", list(FP8))
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_fp8_quant_bitwise_torch(target, op, dtype):
    fp8, fmax = FP8[op]
    x = randn(6, 4133, dtype=dtype, scale=3.0)  # two chunks of the 4096 split
    x[1] = 0.0  # the min scale
    x[2] = x[2] * 1e-3  # small magnitudes
    x[3, 7] = 1e4  # one outlier: the rest of the row lands in the subnormal range
    q, s = MODS[target][op].__dict__[op](x)
    rq, rs = _fp8_ref(x, fp8, fmax)
    assert q.dtype == fp8 and q.shape == x.shape and s.dtype == torch.float32 and s.shape == (6, 1)
    assert torch.equal(s, rs)
    assert torch.equal(q.view(torch.uint8), rq.view(torch.uint8))


@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("op", list(FP8))
def test_fp8_rounding_matches_torch_on_a_dense_grid(target, op):
    # A row whose absmax is fmax has scale 1: q is the cast of x itself. The values cover
    # every binade from below the smallest subnormal to fmax, ties between fp8 neighbours
    # (to even), and the values just around each tie.
    fp8, fmax = FP8[op]
    codes = torch.arange(256, dtype=torch.uint8).view(fp8).float()
    grid = codes[torch.isfinite(codes)].unique()
    mids = (grid[1:] + grid[:-1]) / 2
    vals = torch.cat([grid, mids, torch.nextafter(mids, torch.tensor(0.0)), torch.nextafter(mids, mids * 2),
                      randn(2000, seed=5) * torch.exp2(randn(2000, seed=6) * 8)]).clamp(-fmax, fmax)
    x = torch.cat([vals, torch.tensor([fmax])]).reshape(1, -1)
    q, s = MODS[target][op].__dict__[op](x)
    assert torch.equal(s, torch.ones(1, 1))
    assert torch.equal(q.view(torch.uint8), x.to(fp8).view(torch.uint8))


@pytest.mark.parametrize("fmt", ["f8e4m3", "f8e5m2"])
def test_fp8_subnormal_rounding_constant_is_torchs(fmt):
    """The helper rounds a magnitude below the smallest normal fp8 to the subnormal grid as
    (a + sub_add) - sub_add in float32: every 61st float32 pattern below it, and each grid point's
    neighbours and ties, round as torch's cast does (exhaustively checked when it was written)."""
    import numpy as np

    ctx = emit.FP8[fmt]
    fp8 = {"f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}[fmt]
    top = np.float32(float(ctx.normal_min)).view(np.uint32)
    a = np.arange(0, top, 61, dtype=np.uint32).view(np.float32)
    ulp = np.float32(float(ctx.sub_ulp))
    grid = np.arange(0, 2 ** ctx.mant, dtype=np.float32) * ulp
    ties = np.concatenate([grid + ulp / 2, np.nextafter(grid + ulp / 2, np.float32(0)), np.nextafter(grid + ulp / 2, np.float32(1))])
    a = np.concatenate([a, ties[ties < float(ctx.normal_min)]])
    c = np.float32(float(ctx.sub_add))
    got = torch.from_numpy((a + c) - c)
    assert torch.equal(got, torch.from_numpy(a).to(fp8).float())


def test_fp8_nan_threshold_is_where_the_rounding_passes_max():
    """e4m3fn's helper gives nan in one compare, above emit.FP8's nan_above: exactly the float32
    magnitudes whose rounding to the fp8 grid (the helper's own, on the float32 bits) passes max, for
    every pattern from max to twice it; e5m2 (inf above max) keeps its two checks. (torch 2.13's cast
    saturates such values to 448 instead: fp8_quant clamps before it.)"""
    import numpy as np

    ctx = emit.FP8["f8e4m3"]
    lo, hi = (np.float32(v).view(np.uint32) for v in (float(ctx.max), 2 * float(ctx.max)))
    bits = np.arange(lo, hi, dtype=np.uint32).astype(np.int64)
    rounded = ((bits + ctx.half + ((bits >> ctx.shift) & 1)) & ctx.mask).astype(np.uint32).view(np.float32)
    a = bits.astype(np.uint32).view(np.float32)
    assert np.array_equal(a > np.float32(float(ctx.nan_above)), rounded > np.float32(float(ctx.max)))
    assert float(ctx.nan_above) == 464.0 and emit.FP8["f8e5m2"].nan_above == ""


@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("op", list(FP8))
def test_fp8_signed_zeros_are_torchs(target, op):
    """Negative values that round to zero store -0 (0x80), as torch's cast does; cuda's helper sets the
    input's sign bit in the byte it computes (targets.Target.fp8_int_bytes)."""
    fp8, fmax = FP8[op]
    tiny = [-0.0, 0.0, -1e-30, -1e-9, -(2.0 ** -20), 2.0 ** -20, -3.0e-38]
    x = torch.tensor([[fmax, -fmax, *tiny]])  # absmax fmax: scale 1, q is the cast of x itself
    q, s = MODS[target][op].__dict__[op](x)
    assert torch.equal(s, torch.ones(1, 1))
    assert torch.equal(q.view(torch.uint8), x.to(fp8).view(torch.uint8))
    assert q.view(torch.uint8)[0, 2].item() == 0x80 and q.view(torch.uint8)[0, 3].item() == 0


@pytest.mark.parametrize("op", list(FP8))
@pytest.mark.parametrize("target", [rg_targets.CUDA, rg_targets.ASCEND], ids=lambda t: t.name)
def test_fp8_byte_in_integers_where_the_target_says(op, target):
    """cuda's helper computes the byte in integers and stores its bits, compiling no float-to-fp8
    conversion (on an H200 the conversion lost -0's sign, run 214, and its paired e4m3x2 form with
    the sign ORed into the byte stored 0xfc at odd elements, run 216); ascend's casts the signed value."""
    fmt = {"fp8_quant": "f8e4m3", "fp8_quant_e5m2": "f8e5m2"}[op]
    helper = Path(MODS[target.name][op].__file__).read_text().split(f"def _rg_{fmt}(")[1].split("\n\n\n")[0]
    tl_type = emit.FP8[fmt].tl
    assert (f".to({tl_type}, bitcast=True)" in helper) == target.fp8_int_bytes
    assert (f".to({tl_type})" in helper) is False  # the value is cast by the caller, or never
    assert ("-r, r)" in helper) == (not target.fp8_int_bytes)
    assert rg_targets.CUDA.fp8_int_bytes


@pytest.mark.parametrize("fmt", ["f8e4m3", "f8e5m2"])
def test_fp8_integer_codes_are_torchs(fmt):
    """The integer form's constants (emit.Fp8Ctx code_bias, sub_add and sub_bits, over_code), run as
    the cuda helper runs them, give torch's byte for every 61st float32 pattern of either sign, each
    fp8 value's ties and neighbours, infinities and NaNs (e4m3fn above max excepted: torch 2.13
    saturates there, the helper gives NaN, fp8_quant clamps first)."""
    import numpy as np

    ctx = emit.FP8[fmt]
    fp8 = {"f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}[fmt]
    grid = torch.arange(128, dtype=torch.uint8).view(fp8).float().numpy()
    grid = grid[np.isfinite(grid)]
    mids = (grid[1:] + grid[:-1]) / 2
    a = np.concatenate([np.arange(0, 0x7F800001, 61, dtype=np.uint32).view(np.float32), grid, mids,
                        np.nextafter(mids, np.float32(0)), np.nextafter(mids, np.float32(np.inf)),
                        np.array([np.inf, np.nan], dtype=np.float32)])
    if ctx.nan_above:
        a = a[~(a > np.float32(float(ctx.max)))]
    v = np.concatenate([a, -a])

    def helper(v):  # the template's int_bytes form, in numpy's int64 (the GPU's int32 never overflows here)
        mag = np.abs(v)
        bits = mag.view(np.int32).astype(np.int64)
        code = ((bits + ctx.half + ((bits >> ctx.shift) & 1)) >> ctx.shift) - ctx.code_bias
        if not ctx.nan_above:
            code = np.minimum(code, ctx.over_code)
        sub = (mag + np.float32(float(ctx.sub_add))).view(np.int32).astype(np.int64) - ctx.sub_bits
        code = np.where(mag < np.float32(float(ctx.normal_min)), sub, code)
        if ctx.nan_above:
            code = np.where(~(mag <= np.float32(float(ctx.nan_above))), ctx.over_code, code)
        else:
            code = np.where(mag != mag, 127, code)
        return ((code | ((v.view(np.int32) >> 24) & 128)) & 255).astype(np.uint8)

    assert np.array_equal(helper(v), torch.from_numpy(v).to(fp8).view(torch.uint8).numpy())


def test_fp8_quant_batch_invariant(variant):
    x = randn(9, 4133, dtype=torch.bfloat16, seed=7, scale=2.0)
    for op in FP8:
        fn = variant[op].__dict__[op]
        full = fn(x)
        for b in (1, 2, 5):
            assert same(fn(x[:b]), rows(full, b)), (op, b)


# --- fused residual add + rms_norm ------------------------------------------------------------------
@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_add_rms_norm_matches_float64(target, dtype):
    x, r, w = randn(5, 4133, dtype=dtype), randn(5, 4133, dtype=dtype, seed=1), randn(4133, dtype=dtype, seed=2)
    h, y = MODS[target]["add_rms_norm"].add_rms_norm(x, r, w, eps=1e-5)
    hd = x.double() + r.double()
    assert h.dtype == y.dtype == dtype and h.shape == y.shape == x.shape
    assert_accurate(h, hd, dtype)
    assert_accurate(y, hd * torch.rsqrt(hd.square().mean(-1, keepdim=True) + 1e-5) * w.double(), dtype)


def test_add_rms_norm_batch_invariant(variant):
    x, r, w = randn(9, 4133, dtype=torch.bfloat16, seed=8), randn(9, 4133, dtype=torch.bfloat16, seed=9), \
        randn(4133, dtype=torch.bfloat16, seed=10)
    full = variant["add_rms_norm"].add_rms_norm(x, r, w)
    for b in (1, 2, 5):
        assert same(variant["add_rms_norm"].add_rms_norm(x[:b], r[:b], w), rows(full, b))


# --- cross-entropy and nll_loss: gathers by an integer input --------------------------------------
@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(6, 1000), (3, 50, 7), (4, 4133)], ids=str)
def test_cross_entropy_matches_torch(target, dtype, shape):
    x = randn(*shape, dtype=dtype, scale=3.0)
    t = targets(1, shape[0], *shape[2:], classes=shape[1])
    t.view(-1)[1] = -100  # ignored: loss 0
    x.view(shape[0], shape[1], -1)[0, (t.view(shape[0], -1)[0, 0] + 1) % shape[1], 0] = float("-inf")  # fine
    got = MODS[target]["cross_entropy"].cross_entropy(x, t, dim=1)
    ref = F.cross_entropy(x.double(), t, reduction="none")
    assert got.dtype == dtype and got.shape == ref.shape
    assert_accurate(got, ref, dtype)
    assert got.view(-1)[1] == 0


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_cross_entropy_ignore_index_parameter(target):
    x, t = randn(4, 300), targets(2, 4, classes=300)
    t[2] = 7
    got = MODS[target]["cross_entropy"].cross_entropy(x, t, dim=1, ignore_index=7)
    assert_accurate(got, F.cross_entropy(x.double(), t, reduction="none", ignore_index=7), torch.float32)


@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_nll_loss_matches_torch(target, dtype):
    x = randn(3, 40, 5, dtype=dtype).log_softmax(1)
    t = targets(3, 3, 5, classes=40)
    t[1, 2] = -100
    got = MODS[target]["nll_loss"].nll_loss(x, t, dim=1)
    assert_accurate(got, F.nll_loss(x.double(), t, reduction="none"), dtype)


def test_gathers_batch_invariant(variant):
    x = randn(9, 4133, dtype=torch.float16, seed=11)
    t = targets(12, 9, classes=4133)
    t[4] = -100
    for op in ("cross_entropy", "nll_loss"):
        fn = getattr(variant[op], op)
        full = fn(x, t, dim=1)
        for b in (1, 2, 5):
            assert same(fn(x[:b], t[:b], dim=1), full[:b]), (op, b)


def test_integer_input_dtype_checked_at_launch():
    with pytest.raises(TypeError, match="t has dtype torch.int32; expected one of torch.int64"):
        c_cross_entropy.cross_entropy(randn(2, 8), torch.zeros(2, dtype=torch.int32), dim=1)


# --- nansum (where), vector_norm (a float power) ------------------------------------------------------
@pytest.mark.parametrize("target", ["cuda", "ascend"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_nansum_and_vector_norm(target, dtype):
    x = randn(4, 300, 3, dtype=dtype)
    x[0, 5, 1] = x[2, 0, 0] = float("nan")
    assert_accurate(MODS[target]["nansum"].nansum(x, 1), torch.nansum(x.double(), 1), dtype)
    x = randn(4, 300, 3, dtype=dtype)
    x[1, :, 2] = 0.0  # an all-zero row: norm 0 (log 0 = -inf, exp(-inf) = 0)
    for ord_ in (2.0, 1.0, 3.5):
        got = MODS[target]["vector_norm"].vector_norm(x, 1, ord=ord_)
        assert_accurate(got, torch.linalg.vector_norm(x.double(), ord_, dim=1), dtype)


POWERS = """op {name}
in   x[M, N] : f32
param p = 2
out  y[M]    : f32
acc  f32
reduce N: s = sum({term})
y = s
"""


def _build_text(tmp_path: Path, name: str, term: str, target: str):
    spec = tmp_path / f"{name}.red"
    spec.write_text(POWERS.format(name=name, term=term))
    assert main(["build", str(spec), "--target", target, "--out", str(tmp_path), "--no-empirical"]) == 0
    mod_spec = importlib.util.spec_from_file_location(f"_pow_{name}_{target}", tmp_path / target / f"{name}.py")
    mod = importlib.util.module_from_spec(mod_spec)
    sys.modules[mod_spec.name] = mod  # triton reads kernel source through the module
    mod_spec.loader.exec_module(mod)
    return getattr(mod, name)


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_a_parameter_power_is_exact_at_2_and_1(target, tmp_path):
    """`x ** p` for a parameter p (exprs._pow_helper: _rg_powp): at p = 2 exactly x * x and at
    p = 1 exactly x, bit for bit, a negative base too (torch.pow's values); any other p is
    exp(p * log(x)), NaN for a negative base. vector_norm's ord = 2 (the default) took an exp and a
    log an element before (H100: 0.50 of torch's speed, docs/gpu_2026_11_26/README.md run 26)."""
    powered = _build_text(tmp_path, "powered", "x ** p", target)
    squares = _build_text(tmp_path, "squares", "x * x", target)
    plain = _build_text(tmp_path, "plain", "x", target)
    x = randn(3, 300)  # about half negative
    assert torch.equal(powered(x, -1), squares(x, -1))
    assert torch.equal(powered(x, -1, p=1.0), plain(x, -1))
    assert torch.isnan(powered(x, -1, p=3.0)).all()  # every row has a negative base
    assert_accurate(powered(x.abs(), -1, p=3.0), (x.abs().double() ** 3).sum(-1), torch.float32)


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_a_parameter_power_of_abs_squares_the_value(target, tmp_path):
    """`abs(x) ** p` for a parameter p (exprs._pow_helper: _rg_powpa): at p = 2 x * x itself (the
    same bits as |x| * |x|: the kernel takes no abs there), at p = 1 abs(x), else exp(p * log|x|). The
    launcher reads p into the kernels' constexpr P_0_FORM (_pow_form: 2, 1, else 0), one value a launch."""
    powered = _build_text(tmp_path, "apowered", "abs(x) ** p", target)
    squares = _build_text(tmp_path, "asquares", "x * x", target)
    plain = _build_text(tmp_path, "aplain", "abs(x)", target)
    source = (tmp_path / target / "apowered.py").read_text()
    assert "_rg_powpa(in_0_v, p_0, P_0_FORM)" in source and "P_0_FORM: tl.constexpr" in source
    form = sys.modules[powered.__module__]._pow_form
    assert (form(2.0), form(1.0), form(3.0), form(0.5)) == (2, 1, 0, 0)
    x = randn(3, 300)  # about half negative
    assert torch.equal(powered(x, -1), squares(x, -1))
    assert torch.equal(powered(x, -1, p=1.0), plain(x, -1))
    for p in (3.0, 0.5):
        assert_accurate(powered(x, -1, p=p), (x.double().abs() ** p).sum(-1), torch.float32)


def test_which_expressions_the_compiler_may_narrow():
    """exprs.narrowed: an abs, a negation or a comparison of a float input itself (the compiler may
    run it on packed 16-bit loads: the cols walks then widen their loads through _rg_f32); not of an
    integer input (nll_loss's t == ignore_index), not a power of abs(x) to a parameter (its helper
    squares x), nor a function of a computed value."""
    from redgen import ir
    from redgen.exprs import narrowed

    x, t, p = ir.Ref("input", "x"), ir.Ref("input", "t"), ir.Ref("param", "p")
    f = {"x"}
    assert narrowed([ir.Apply("ne", (x, x))], f) and narrowed([ir.Apply("abs", (x,))], f)
    assert narrowed([ir.Apply("where", (ir.Apply("ne", (x, x)), ir.Lit(0.0), x))], f)
    assert not narrowed([ir.Apply("eq", (t, p)), ir.Apply("neg", (ir.Apply("mul", (x, x)),))], f)
    assert not narrowed([x, ir.Apply("powf", (ir.Apply("abs", (x,)), p))], f)
    assert not narrowed([ir.Apply("abs", (ir.Apply("mul", (x, x)),))], f)


# --- a mean over two non-adjacent axes ---------------------------------------------------------------
@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_mean_over_two_non_adjacent_axes(target):
    # x[A, N1, B, N2] reducing N1 and N2: the launcher merges the reduced dims, in order,
    # into one reduce axis of length N1*N2 (element (n1, n2) at n1*N2 + n2), A into M and B
    # into K: the order is that of a single axis of N1*N2 elements.
    mean = MODS[target]["mean"].mean
    x = randn(5, 70, 3, 61, scale=2.0)
    y = mean(x, (1, 3))
    assert_accurate(y, x.double().mean((1, 3)), torch.float32)
    assert torch.equal(y, mean(x.permute(0, 2, 1, 3).reshape(5, 3, 70 * 61), -1))
    for b in (1, 2):
        assert torch.equal(mean(x[:b], (1, 3)), y[:b])


# --- errors -------------------------------------------------------------------------------------------
def _err(tmp_path: Path, body: str, target: str = "cuda") -> RedgenError:
    p = tmp_path / "x.red"
    p.write_text(body)
    with pytest.raises(RedgenError) as info:
        plan_spec(p, target)
    return info.value


CE = """op ce
in   x[M, N] : f32
in   t[M]    : i64
out  y[M]    : f32
reduce N: m = max(x)
{line}
"""


@pytest.mark.parametrize("line, code, fragment", [
    ("y = m + t", "E118", "'t' is an integer input (i64): it holds positions along the reduce axis, not values"),
    ("reduce N: s = sum(x * t)\ny = s", "E118", "it can only be a gather index ('x[t]') or compared"),
    ("y = m[t]", "E119", "only a float input over the reduce axis 'N' can be indexed"),
    ("y = x[m]", "E119", "must be an integer input"),
    ("y = m ** 0", "E107", "'** 0' is always 1"),
])
def test_misuse_messages(tmp_path, line, code, fragment):
    e = _err(tmp_path, CE.format(line=line))
    assert e.code == code and fragment in e.message, e.render()


def test_function_missing_on_a_target_is_refused_at_its_position(tmp_path, monkeypatch):
    monkeypatch.setitem(rg_targets.TARGETS, "ascend", dataclasses.replace(rg_targets.ASCEND, missing=("erf",)))
    body = "op f\nin x[M, N] : f32\nout y[M] : f32\nreduce N: s = sum(erf(x))\ny = s\n"
    e = _err(tmp_path, body, "ascend")
    assert (e.code, e.loc.line, e.loc.col) == ("T305", 4, 19)
    assert "ascend: erf() has no lowering in the ascend compiler" in e.message
    plan_spec(tmp_path / "x.red", "cuda")  # the other target builds


def test_new_error_codes_exist():
    assert (errors.IntegerMisuse.code, errors.BadGather.code, errors.NotOnTarget.code) == ("E118", "E119", "T305")


# --- batch-invariant mode -------------------------------------------------------------------------------
def _routed(run):
    """run() under strict batch-invariant mode: (its result, aten overload -> routed calls)."""
    assert not redgen.is_enabled()
    before = mode.call_counts().copy()
    with redgen.batch_invariant(strict=True):
        out = run()
    return out, mode.call_counts() - before


def test_routing_nll_loss_and_cross_entropy():
    # cross_entropy is log_softmax then nll_loss: both routed; 'mean'/'sum' reduce the rows
    # with redgen's sum (a fixed order for a given number of rows).
    x, t = randn(6, 50, seed=13), targets(14, 6, classes=50)
    t[3] = -100
    reductions = ("none", "mean", "sum")
    got, calls = _routed(lambda: [F.cross_entropy(x, t, reduction=r) for r in reductions])
    for g, r in zip(got, reductions, strict=True):
        assert_accurate(g, F.cross_entropy(x.double(), t, reduction=r), torch.float32)
    assert calls["_log_softmax.default"] == 3 and calls["nll_loss_forward.default"] == 3
    x4, t3 = randn(2, 7, 3, 4, seed=15), targets(16, 2, 3, 4, classes=7)
    got, calls = _routed(lambda: F.cross_entropy(x4, t3))
    assert_accurate(got, F.cross_entropy(x4.double(), t3), torch.float32)
    assert calls["nll_loss2d_forward.default"] == 1
    logp = x.log_softmax(-1)
    got, calls = _routed(lambda: F.nll_loss(logp, t, reduction="none"))
    assert torch.equal(got, F.nll_loss(logp, t, reduction="none"))  # a gather: exact
    assert calls["nll_loss_forward.default"] == 1


def test_routing_nansum_and_vector_norm():
    x = randn(4, 30, seed=17)
    x[1, 2] = float("nan")
    (ns, vn), calls = _routed(lambda: (torch.nansum(x, 1), torch.linalg.vector_norm(x[2:], 3.0, dim=-1)))
    assert_accurate(ns, torch.nansum(x.double(), 1), torch.float32)
    assert_accurate(vn, torch.linalg.vector_norm(x[2:].double(), 3.0, dim=-1), torch.float32)
    assert calls["nansum.default"] == 1 and calls["linalg_vector_norm.default"] == 1
