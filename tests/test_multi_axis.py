"""A reduction over two non-adjacent axes: `reduce N1, N2 as N` (specs/mean_2axes.red).

The modules are built here (into a temp dir, interpreter check skipped: the build's own
empirical check is the pipeline's job), so the tests hold before and after generated/ is
rebuilt. Accuracy against float64 at tests/tolerances.py; batch invariance bitwise.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
import torch

import redgen
from redgen.check import check as check_spec_text
from redgen.cli import main
from redgen.errors import RedgenError
from redgen.parse import parse
from redgen.pipeline import check_spec, plan_spec
from redgen.reference import evaluate
from redgen.runtime import mode
from tests.tolerances import assert_accurate

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "mean_2axes.red"
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
# every way a row can be computed: cuda fused / split path, ascend grids of 1 and 8 programs
KNOBS = {"cuda": ("SPLIT_BELOW", (None, 0, 1 << 62)), "ascend": ("CORES", (None, 1, 8))}


def randn(*shape, dtype=torch.float32, seed: int = 0) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen2")
    for target in ("cuda", "ascend"):
        assert main(["build", str(SPEC), "--target", target, "--out", str(out), "--no-empirical", "-q"]) == 0
    return out


def _import(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # triton reads kernel source through the module
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module", params=["cuda", "ascend"])
def mod(request, built):
    name = f"_mean_2axes_{request.param}"
    yield request.param, _import(built / request.param / "mean_2axes.py", name)
    sys.modules.pop(name, None)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_matches_float64(mod, dtype):
    _, m = mod
    x = randn(3, 70, 4, 61, dtype=dtype) * 2 + 1  # N = 4270: two chunks of the 4096 split
    y = m.mean_2axes(x)
    assert y.dtype == dtype and y.shape == (3, 4)
    assert_accurate(y, x.double().mean((1, 3)), dtype)
    ref = evaluate(check_spec(SPEC), {"x": x})["y"]  # the spec's own float64 meaning
    assert_accurate(y, ref, dtype)


def test_batch_invariant_bitwise(mod, monkeypatch):
    target, m = mod
    knob, values = KNOBS[target]
    x = randn(40, 70, 3, 61, seed=1)
    full = m.mean_2axes(x)
    for v in values:
        if v is not None:
            monkeypatch.setattr(m, knob, v)
        for a in (1, 2, 3, 13, 40):
            assert torch.equal(m.mean_2axes(x[:a]), full[:a]), (knob, v, a)
        for b in (1, 2):
            assert torch.equal(m.mean_2axes(x[:13, :, :b]), full[:13, :b]), (knob, v, b)
        perm = torch.tensor([5, 0, 1, 2, 3, 4])
        assert torch.equal(m.mean_2axes(x[perm]), full[perm]), (knob, v)  # a row moved
    assert torch.equal(m.mean_2axes(x), full)  # run to run


def test_same_bits_as_the_single_axis_kernel_on_the_merged_axis(mod):
    # One fixed order over the merged position n1*N2 + n2: the single-axis `mean` over the
    # permuted, merged copy (same lanes, same 4096 split) gives the same bits.
    target, m = mod
    mean = importlib.import_module(f"generated.{target}.mean").mean
    x = randn(5, 70, 3, 61, seed=2)
    merged = x.permute(0, 2, 1, 3).reshape(5, 3, 70 * 61)
    assert torch.equal(m.mean_2axes(x), mean(merged, -1))
    assert torch.equal(m.mean_2axes(x), mean(x, (1, 3)))


def test_cuda_walks_both_axes_in_place(built, monkeypatch):
    # The cuda launcher never lays the input out as [M, N, K] (_as3: a permute, and here a
    # copy): its kernels read (n // N2, n % N2) with the input's own strides, any layout.
    m = _import(built / "cuda" / "mean_2axes.py", "_mean_2axes_cuda_inplace")
    x = randn(4, 33, 5, 29, seed=3)
    want = m.mean_2axes(x)

    # the same values in another layout (dims stored in reverse order): not contiguous
    t = x.permute(3, 2, 1, 0).clone(memory_format=torch.contiguous_format).permute(3, 2, 1, 0)
    assert not t.is_contiguous()

    def no_copy(*a, **k):
        raise AssertionError("the cuda launcher laid the input out (a copy)")

    monkeypatch.setattr(m, "_as3", no_copy)
    monkeypatch.setattr(torch.Tensor, "contiguous", no_copy)
    assert torch.equal(m.mean_2axes(t), want)
    assert "the input is never copied" in m.__doc__ + str(m.CERTIFICATE)


def test_launcher_conventions(mod):
    _, m = mod
    x = randn(2, 9, 3, 7)
    assert m.REDUCE_DIMS == (1, 3)  # benchmarks/gpu_sweep.py skips such modules (no `dim`)
    assert m.mean_2axes(x, keepdim=True).shape == (2, 1, 3, 1)
    assert m.mean_2axes(x, dtype=torch.float16).dtype == torch.float16
    assert m.mean_2axes(x[:, :0]).isnan().all()  # as torch: 0/0 over an empty N1
    with pytest.raises(ValueError, match=r"x must have 4 dims \[A, N1, B, N2\], got shape \(2, 9, 3\)"):
        m.mean_2axes(x[..., 0])
    with pytest.raises(TypeError):
        m.mean_2axes(x, dim=1)  # the reduced dims are the spec's


def test_certificate_states_the_merged_order(mod):
    target, m = mod
    cert = m.CERTIFICATE
    assert cert["depends_on"] == ["N"] and set(cert["independent_of"]) >= {"A", "B"}
    assert cert["statement"].startswith("N = N1*N2 merged positions, (N1, N2) at n = n1*N2 + n2;")
    assert cert["method"].endswith("z3: position n = n1*N2 + n2 of the merged axis is read at (n // N2, n % N2), "
                                   "and every n < N1*N2 inside both axes (a bijection; N1*N2 < 2^31)")
    walk = next(x for x in cert["not_order_shaping"] if x.startswith("the walk of the reduce axes N1, N2"))
    assert ("in place" in walk) == (target == "cuda") and ("become one axis" in walk) == (target == "ascend")


def test_mode_routes_non_adjacent_mean_to_the_two_axes_kernel(built, tmp_path, monkeypatch):
    cuda = tmp_path / "cuda"
    cuda.mkdir()
    shutil.copy(ROOT / "generated" / "cuda" / "mean.py", cuda / "mean.py")
    shutil.copy(built / "cuda" / "mean_2axes.py", cuda / "mean_2axes.py")
    monkeypatch.setenv("REDGEN_GENERATED", str(tmp_path))
    x = randn(3, 20, 4, 9, seed=4)
    two = redgen.load("mean_2axes")
    with redgen.batch_invariant():
        before = mode.call_counts()
        y4 = torch.mean(x, dim=(1, 3))
        y4k = torch.mean(x, dim=(-1, 1), keepdim=True)
        y3 = torch.mean(x[0], dim=(0, 2))
        y1 = torch.mean(x, dim=1)  # one dim: the single-axis kernel
        used = mode.call_counts() - before
    assert used["mean.dim"] == 4
    assert torch.equal(y4, two(x)) and torch.equal(y4k, two(x, True)) and torch.equal(y3, two(x[:1])[0])
    assert torch.equal(y1, redgen.load("mean")(x, 1))
    assert y4.shape == (3, 4) and y4k.shape == (3, 1, 4, 1) and y3.shape == (4,)


# --- the language ------------------------------------------------------------------------------------
BODY = """op m
in   x[A, N1, B, N2] : f32
{extra}out  y[A, B] : f32
{reduce}
y = {expr}
"""


def _err(tmp_path: Path, reduce: str, expr: str = "s / N", extra: str = "") -> RedgenError:
    p = tmp_path / "x.red"
    p.write_text(BODY.format(reduce=reduce, expr=expr, extra=extra))
    with pytest.raises(RedgenError) as info:
        plan_spec(p, "cuda")
    return info.value


@pytest.mark.parametrize("reduce, expr, extra, code, fragment", [
    ("reduce N1, N2: s = sum(x)", "s", "", "E106", "several reduce axes are merged into one: name it"),
    ("reduce N2, N1 as N: s = sum(x)", "s", "", "E106", "reduce axes are listed in the order of 'x'"),
    ("reduce N1 as N: s = sum(x)", "s", "", "E106", "'as N' names the merge of several reduce axes"),
    ("reduce N1, B, N2 as N: s = sum(x)", "s", "", "E106", "at most two axes are reduced together"),
    ("reduce N1, N2 as N: s = sum(x)", "s / N1", "", "E106", "cannot read 'N1', one of the reduce axes"),
    ("reduce N1, N2 as N: s = sum(x)\nreduce N1: t = sum(x)", "s + t", "", "E106",
     "every reduction must be over the same axis"),
    ("reduce N1, N2 as N: s = sum(x * w)", "s", "in w[N2] : f32\n", "E106",
     "an input has all of them or none"),
    ("reduce N1, N2 as B: s = sum(x)", "s", "", "E102", "'B' is already an axis"),
    ("reduce N1, N2 as N: s = sum(x)\nsplit N1 fixed_size 64", "s", "", "E110", "only the reduce axis"),
])
def test_misuse(tmp_path, reduce, expr, extra, code, fragment):
    e = _err(tmp_path, reduce, expr, extra)
    assert e.code == code and fragment in e.message, e.render()


def test_a_mapped_output_over_merged_axes_is_refused(tmp_path):
    p = tmp_path / "x.red"
    p.write_text("op m\nin x[A, N1, B, N2] : f32\nout y[A, N1, B, N2] : f32\nreduce N1, N2 as N: s = sum(x)\n"
                 "y = x / s\n")
    with pytest.raises(RedgenError) as info:
        check_spec(p)
    assert info.value.code == "E109" and "not supported" in info.value.message


def test_as_is_still_a_name_elsewhere():
    # `as` is a keyword of the reduce statement only (Lark's contextual lexer): an input may
    # still be called `as`.
    spec = parse("op m\nin as[M, N] : f32\nout y[M] : f32\nreduce N: s = sum(as)\ny = s\n", "t.red")
    assert spec.stmts[0].name.text == "as" and check_spec_text(spec).inputs[0].name == "as"


def test_weight_over_both_reduce_axes(tmp_path):
    # A second input over both merged axes is walked the same way (cuda) or copied alike (ascend).
    p = tmp_path / "wsum.red"
    p.write_text("op wsum\nin x[A, N1, B, N2] : f32\nin w[N1, N2] : f32\nout y[A, B] : f32\n"
                 "reduce N1, N2 as N: s = sum(x * w)\ny = s\ntile N = 64\nsplit N fixed_size 256\n")
    for target in ("cuda", "ascend"):
        assert main(["build", str(p), "--target", target, "--out", str(tmp_path), "--no-empirical", "-q"]) == 0
        m = _import(tmp_path / target / "wsum.py", f"_wsum_{target}")
        x, w = randn(6, 21, 3, 17, seed=5), randn(21, 17, seed=6)
        y = m.wsum(x, w)
        assert_accurate(y, torch.einsum("anbm,nm->ab", x.double(), w.double()), torch.float32)
        assert torch.equal(m.wsum(x[:2], w), y[:2])
        sys.modules.pop(f"_wsum_{target}", None)


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_merged_lengths_past_int32_are_refused_before_launch(built, target, monkeypatch):
    # N1 * N2 = 65536 * 32769 > 2**31 - 1: cuda's in-place walk is proved for N1*N2 < 2**31 (its
    # certificate's lemma), ascend indexes with int32; both refuse, naming the length, and
    # nothing launches (an expanded view: no memory behind it).
    m = _import(built / target / "mean_2axes.py", f"_mean_2axes_{target}_big")

    def no_launch(*a, **k):
        raise AssertionError("launched")

    monkeypatch.setattr(m, "_launch", no_launch)
    x = torch.zeros(1, 1, 1, 1).expand(1, 65536, 1, 32769)
    with pytest.raises(ValueError, match="2147516416|2147483647"):
        m.mean_2axes(x)
