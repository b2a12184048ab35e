"""cuda's lane trees in the form that is cheapest to run, with the bits of the proven order.

- Order-free combiners (combiners.Combiner.order_free): argmax/argmin's lanes meet in
  tl.reduce's tree, not in the written-out pairwise tree (whose tl.split levels Triton gathers
  into every thread). Sound only if every tree gives the same bits: the combine must select
  one of its operands exactly and be commutative and associative over the states a kernel
  forms (distinct indices).
- Commutative combiners (combiners.Combiner.commutative: sum, max, min): the pairwise tree in
  two forms, each level a two-element tl.reduce (PAIRS) or a tl.split; the same pairs, so the
  same bits if and only if combine(a, b) and combine(b, a) agree bit for bit. For sum that is
  IEEE addition (checked here); for max/min it is the GPU instruction's (max.NaN.f32 /
  min.NaN.f32: checked here to be what the trees compile to, measured on the GPU in
  docs/gpu_2026_11_25/README.md run 5 and docs/gpu_2026_11_26/README.md run 1).

Both properties are checked over the special values with the body the templates print; then
the two tree forms are run side by side, and what is emitted and certified is checked per target.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl

from redgen import combiners, plan
from redgen.pipeline import build_spec
from tests.launch_spy import launches

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "specs" / "examples" / "argmax_and_sum.red"
INDEX = [c for c in combiners.COMBINERS.values() if c.order_free]


class _TL:
    """The tl functions an index combine uses, on torch tensors (CPU, IEEE comparisons)."""

    @staticmethod
    def where(c, a, b):
        return torch.where(c, a, b)


def _combine(c):
    """The combine body the templates print, as a Python function on torch tensors."""
    k = range(len(c.state))
    params = ", ".join([f"a{j}" for j in k] + [f"b{j}" for j in k])
    ns: dict = {}
    body = "\n".join("    " + line for line in c.body)
    exec(f"def combine({params}):\n{body}", {"tl": _TL}, ns)
    return ns["combine"]


def _states():
    """(value, index) pairs: every special value at three indices, and the identity."""
    values = [float("-inf"), -3.5, -1e-45, -0.0, 0.0, 1e-45, 2.0, 2.0 + 2**-22, float("inf"), float("nan")]
    pairs = [(v, i) for v in values for i in (0, 1, 7)] + [(float("-inf"), 2**31 - 1), (float("inf"), 2**31 - 1)]
    return torch.tensor([p[0] for p in pairs], dtype=torch.float32), torch.tensor([p[1] for p in pairs])


def _bits(v, i):
    return v.view(torch.int32), i


def test_index_combiners_are_order_free():
    assert {c.name for c in INDEX} == {"argmax", "argmin"}
    assert not any(c.order_free for c in combiners.COMBINERS.values() if c.kind != "index")


@pytest.mark.parametrize("c", INDEX, ids=lambda c: c.name)
def test_index_combine_is_an_exact_commutative_associative_selection(c):
    f = _combine(c)
    v, i = _states()
    n = len(v)
    a, b, d = (torch.tensor(t) for t in zip(*itertools.product(range(n), repeat=3), strict=True))
    keep = (i[a] != i[b]) & (i[b] != i[d]) & (i[a] != i[d])  # a kernel never meets one index twice
    a, b, d = a[keep], b[keep], d[keep]
    ab = f(v[a], i[a], v[b], i[b])
    # an exact selection: the result is one operand, bit for bit
    va, vb = _bits(v[a], i[a]), _bits(v[b], i[b])
    got = _bits(*ab)
    is_a = (got[0] == va[0]) & (got[1] == va[1])
    is_b = (got[0] == vb[0]) & (got[1] == vb[1])
    assert bool((is_a | is_b).all())
    # commutative
    ba = _bits(*f(v[b], i[b], v[a], i[a]))
    assert torch.equal(got[0], ba[0]) and torch.equal(got[1], ba[1])
    # associative: (a b) d == a (b d)
    left = _bits(*f(*ab, v[d], i[d]))
    right = _bits(*f(v[a], i[a], *f(v[b], i[b], v[d], i[d])))
    assert torch.equal(left[0], right[0]) and torch.equal(left[1], right[1])


@pytest.mark.parametrize("c", INDEX, ids=lambda c: c.name)
def test_a_combine_that_is_not_total_fails_the_check(c):
    """The check above can fail: dropping the two-NaNs tie-break leaves (NaN, 1) and (NaN, 0)
    ordered by position, not by index."""
    body = tuple(line.replace(" | (b_nan & a_nan)", "") for line in c.body)
    assert body != c.body
    f = _combine(type(c)(**{**c.__dict__, "body": body}))
    nan = torch.tensor([float("nan")])
    one, zero = torch.tensor([1]), torch.tensor([0])
    assert not torch.equal(f(nan, one, nan, zero)[1], f(nan, zero, nan, one)[1])


def _load(tmp_path, path, target):
    built = build_spec(path, target, empirical=False)
    file = tmp_path / f"_free_{target}_{built.op.name}.py"
    file.write_text(built.source)
    spec = importlib.util.spec_from_file_location(file.stem, file)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return built, getattr(mod, built.op.name)


def test_cuda_emits_tl_reduce_for_index_trees_only():
    for name in ("argmax", "argmin"):
        cuda = build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False)
        assert f"return tl.reduce((v0, v1), 1, _{name})" in cuda.source
        assert cuda.certificate.order["tree"] == "tl.reduce"
        assert "lanes meet in tl.reduce's tree" in cuda.certificate.statement
        ascend = build_spec(ROOT / "specs" / f"{name}.red", "ascend", empirical=False)
        assert "return tl.reduce(" not in ascend.source  # ascend keeps the pairwise tree (no NPU to measure)
        assert ascend.certificate.order["tree"] == "pairwise"
        assert "lanes meet in a pairwise tree," in ascend.certificate.statement
    softmax = build_spec(ROOT / "specs" / "softmax.red", "cuda", empirical=False)
    assert "return tl.reduce(" not in softmax.source and softmax.certificate.order["tree"] == "pairwise"


@pytest.mark.parametrize("target", ("cuda", "ascend"))
def test_an_index_tree_beside_a_pairwise_one(tmp_path, target):
    """argmax and sum in one spec: on cuda each reduction meets in its own tree; the
    certificate says which; both outputs are torch's, and a row alone gives its bits."""
    built, fn = _load(tmp_path, EXAMPLE, target)
    cert = built.certificate
    if target == "cuda":
        assert "return tl.reduce((v0, v1), 1, _argmax)" in built.source
        assert "def _tree_sum" in built.source and "tl.split(tl.reshape(v0" in built.source
        assert cert.order["tree"] == "pairwise" and cert.order["free_trees"] == ["argmax"]
        assert "lanes meet in a pairwise tree (argmax: in tl.reduce's tree" in cert.statement
    else:
        assert "return tl.reduce(" not in built.source and "free_trees" not in cert.order
    g = torch.Generator().manual_seed(0)
    x = torch.randn(5, 700, generator=g)
    x[1, 3] = x[1, 650] = 9.0  # a tie: the first index
    x[2, 100] = float("nan")
    x[3] = float("-inf")
    i, s = fn(x, dim=1)
    assert torch.equal(i, x.argmax(dim=1))
    torch.testing.assert_close(s[[0, 1, 4]].double(), x[[0, 1, 4]].double().sum(1), rtol=1e-5, atol=1e-4)
    i0, s0 = fn(x[:1], dim=1)
    assert torch.equal(i0, i[:1]) and torch.equal(s0, s[:1])


# --- commutative combiners: the pairwise tree in two forms ------------------------------------
def _specials() -> torch.Tensor:
    """Special float32 values and ordinary ones whose sums round differently by magnitude."""
    v = [0.0, -0.0, 1e-45, -1e-45, 1.0, -1.0, 3e38, -3e38, float("inf"), float("-inf"), float("nan"),
         2**-24, 1 + 2**-23, 1e8, -1e8 + 1, 0.1, 1 / 3]
    return torch.tensor(v, dtype=torch.float32)


def _commutes(c) -> bool:
    f = _combine(c)
    v = _specials()
    a, b = (t.reshape(-1) for t in torch.meshgrid(v, v, indexing="ij"))
    return torch.equal(f(a, b).view(torch.int32), f(b, a).view(torch.int32))


def test_commutative_combiners_commute_bit_for_bit():
    marked = [c.name for c in combiners.COMBINERS.values() if c.commutative]
    assert marked == ["sum", "max", "min"]
    assert _commutes(combiners.get("sum"))  # IEEE addition, on this CPU as on a GPU


# Compiles the pair form of a generated max/min tree for an H100 (no GPU needed: Triton lowers to
# PTX with its own LLVM) and counts the float max/min instructions by form.
_PTX = """
import importlib, json, re, sys
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
mod = importlib.import_module(sys.argv[1])
tree = getattr(mod, sys.argv[2])

@triton.jit
def k(x_ptr, y_ptr, ROWS: tl.constexpr, LANES: tl.constexpr, LOG2_LANES: tl.constexpr):
    r = tl.arange(0, ROWS)
    v = tl.load(x_ptr + r[:, None] * LANES + tl.arange(0, LANES)[None, :])
    tl.store(y_ptr + r, tree(v, ROWS, LANES, LOG2_LANES, True))

src = ASTSource(fn=k, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "ROWS": "constexpr", "LANES": "constexpr",
                                 "LOG2_LANES": "constexpr"}, constexprs={(2,): 2, (3,): 256, (4,): 8})
ptx = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=dict(num_warps=4)).asm["ptx"]
print(json.dumps(sorted(set(re.findall(r"\\b(?:max|min)\\.[a-zA-Z0-9.]*f32\\b", ptx)))))
"""


@pytest.mark.parametrize(("module", "tree", "form"), [("generated.cuda.amax", "_tree_max", "max.NaN.f32"),
                                                      ("generated.cuda.amin", "_tree_min", "min.NaN.f32")])
def test_max_min_pair_trees_compile_to_the_nan_propagating_instruction(module, tree, form, tmp_path):
    """max.NaN.f32 / min.NaN.f32 give one result for either operand order (a canonical NaN when
    either is NaN; +0 from max and -0 from min for zeros of either sign): the PTX ISA's
    semantics, which the GPU runs cited above measured bit for bit. No other form may appear."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}  # triton.jit, not the interpreter
    script = tmp_path / "ptx.py"  # a file: triton.jit reads its kernel's source
    script.write_text(_PTX)
    out = subprocess.run([sys.executable, str(script), module, tree], capture_output=True, text=True, env=env,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [form]


def test_a_combine_that_does_not_commute_fails_the_check():
    c = combiners.get("sum")
    assert not _commutes(type(c)(**{**c.__dict__, "body": ("return a0 - b0",)}))


@triton.jit
def _both_forms(x_ptr, pairs_ptr, split_ptr, tree: tl.constexpr, rows: tl.constexpr, lanes: tl.constexpr,
                log2_lanes: tl.constexpr):
    r = tl.arange(0, rows)
    j = tl.arange(0, lanes)
    v = tl.load(x_ptr + r[:, None] * lanes + j[None, :])
    tl.store(pairs_ptr + r, tree(v, rows, lanes, log2_lanes, True))
    tl.store(split_ptr + r, tree(v, rows, lanes, log2_lanes, False))


# inf + -inf in a row of special values: NaN on purpose
@pytest.mark.filterwarnings("ignore:invalid value encountered in add:RuntimeWarning")
@pytest.mark.parametrize(("module", "tree"), [("sum", "_tree_sum"), ("amax", "_tree_max"), ("amin", "_tree_min")])
def test_the_two_tree_forms_give_the_same_bits(module, tree):
    """The generated trees, PAIRS True and False, on rows of special values and of magnitudes
    that round differently (under the interpreter: the operations, not a GPU's timing; the GPU
    comparisons are docs/gpu_2026_11_23/pair_trees.md and docs/gpu_2026_11_26/README.md)."""
    mod = importlib.import_module(f"generated.cuda.{module}")
    g = torch.Generator().manual_seed(0)
    rows, lanes = 8, 256
    x = torch.randn(rows, lanes, generator=g) * torch.logspace(-20, 20, lanes)
    s = _specials()
    x[0, : len(s)] = s
    x[1] = -x[1].flip(0)
    x[2, ::2] = -0.0
    x[3, 7] = float("nan")
    pairs, split = torch.empty(rows), torch.empty(rows)
    _both_forms[(1,)](x, pairs, split, getattr(mod, tree), rows=rows, lanes=lanes, log2_lanes=8)
    assert torch.equal(pairs.view(torch.int32), split.view(torch.int32))


def test_the_pair_forms_are_emitted_and_certified_on_cuda_only():
    sum_cuda = build_spec(ROOT / "specs" / "sum.red", "cuda", empirical=False)
    assert "v0 = tl.reduce(tl.reshape(v0, [ROWS, LANES >> (i + 1), 2]), 2, _sum)" in sum_cuda.source
    # two-element reduces everywhere but a rows kernel's fused walk over several chunks and the
    # cols kernels' full column blocks (plan.COLS_SPLIT_TREE_BLOCK)
    assert 'PAIRS=cols_pairs if shape == "cols" else num_chunks == 1' in sum_cuda.source
    assert 'dict(consts, PAIRS=cols_pairs if shape == "cols" else True)' in sum_cuda.source
    assert f"cols_pairs = block < {plan.COLS_SPLIT_TREE_BLOCK}" in sum_cuda.source
    assert any("pairwise lane tree of sum" in n for n in sum_cuda.certificate.not_order_shaping)
    softmax = build_spec(ROOT / "specs" / "softmax.red", "cuda", empirical=False)
    assert "return m, _tree_sum(t, ROWS, LANES, LOG2_LANES, PAIRS)" in softmax.source
    assert "m = _tree_max(v0, ROWS, LANES, LOG2_LANES, PAIRS)" in softmax.source
    assert any("pairwise lane tree of max, sum" in n for n in softmax.certificate.not_order_shaping)
    amax = build_spec(ROOT / "specs" / "amax.red", "cuda", empirical=False)
    assert "v0 = tl.reduce(tl.reshape(v0, [ROWS, LANES >> (i + 1), 2]), 2, _max)" in amax.source
    assert any("pairwise lane tree of max" in n for n in amax.certificate.not_order_shaping)
    argmax = build_spec(ROOT / "specs" / "argmax.red", "cuda", empirical=False)
    assert not any("pairwise lane tree" in n for n in argmax.certificate.not_order_shaping)
    for name in ("sum", "softmax", "amax"):
        ascend = build_spec(ROOT / "specs" / f"{name}.red", "ascend", empirical=False)
        assert "PAIRS" not in ascend.source
        assert not any("pairwise lane tree of" in n for n in ascend.certificate.not_order_shaping)


@pytest.mark.parametrize(("k", "split_below", "pairs"), [(40, 0, False), (40, 1 << 62, False), (4, 0, True),
                                                         (4, 1 << 62, True)])
def test_a_cols_kernel_takes_the_split_form_at_a_full_column_block(k, split_below, pairs, monkeypatch):
    """K 40: blocks of 32 columns (plan.COLS_SPLIT_TREE_BLOCK), tl.split's form; K 4: a block of
    4 fitted to K, two-element reduces. Fused (SPLIT_BELOW 0) and split path alike; the rows
    kernels keep theirs."""
    mod = importlib.import_module("generated.cuda.mean")
    seen = launches(mod, monkeypatch)
    monkeypatch.setattr(mod, "SPLIT_BELOW", split_below)
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)  # the rows kernels' chunk walks (the row kernel holds 4500)
    x = torch.randn(2, 4500, k)
    assert torch.allclose(mod.mean(x, 1), x.double().mean(1).float(), atol=1e-5)
    cols = [c for name, c in seen if name.startswith("_k_cols")]
    assert cols and all(c["PAIRS"] is pairs for c in cols)
    seen.clear()
    mod.mean(x[:, :, 0], 1)
    rows = [c for name, c in seen if name.startswith("_k_rows")]
    assert rows and all(c["PAIRS"] is (split_below != 0) for c in rows)  # split: partials pair; fused: 2 chunks


@pytest.mark.parametrize(("name", "split_tree"), [
    ("sum", True), ("mean", True), ("nansum", True), ("amax", True), ("amin", True),
    ("var_held", False),  # two stages
    ("var", False),  # a three-component state (welford)
    ("logsumexp", False), ("softmax", False),  # a two-component state (softmax_stats)
    ("softmax_held", False), ("log_softmax_held", False),  # two stages and outputs over the reduce axis
])
def test_the_split_tree_form_only_where_a_kernel_holds_one_reductions_state(name, split_tree):
    """plan._split_tree_pays (H100 run 24: softmax_held bf16 256 x 256 x 4096 41.7 ms in the split
    form against 1.05 in pairs; sum 1.16x faster in the split form)."""
    built = build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False)
    assert (built.plan.cols_split_tree == plan.COLS_SPLIT_TREE_BLOCK) is split_tree
    assert ("cols_pairs = block < 32" in built.source) is split_tree
    assert ("cols_pairs = True" in built.source) is not split_tree


def test_a_two_stage_cols_kernel_pairs_at_a_full_column_block(monkeypatch):
    mod = importlib.import_module("generated.cuda.var_held")
    seen = launches(mod, monkeypatch)
    x = torch.randn(2, 300, 40)
    assert torch.allclose(mod.var_held(x, 1), x.double().var(1).float(), atol=1e-4)
    cols = [c for name, c in seen if name.startswith("_k_cols")]
    assert cols and all(c["BLOCK"] == 32 and c["PAIRS"] is True for c in cols)


@pytest.mark.parametrize(("name", "block"), [("mean", 64), ("sum", 64), ("amax", 64), ("amin", 64), ("nansum", 64),
                                             ("vector_norm", 64), ("var_held", 32)])
def test_short_rows_take_a_wider_column_block_where_it_paid(name, block, monkeypatch):
    """Rows of at most two tiles (N <= 512) and K >= 64: the cols kernels of the tl.split lane tree
    take 64 columns (plan.COLS_SHORT_BLOCK; H100 runs 27-28, H200 run 114 for nansum and vector_norm),
    the others keep 32. The block is a kernel shape: the columns a 32-column block computes have the
    same bits."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    x = torch.randn(2, 300, 70)
    y = fn(x, 1)
    assert [c["BLOCK"] for k, c in seen if k.startswith("_k_cols")] == [block]
    seen.clear()
    assert torch.equal(fn(x[:, :, :40].contiguous(), 1), y[:, :40])  # K 40: a block of 32 (and 8)
    assert {c["BLOCK"] for k, c in seen if k.startswith("_k_cols")} == {32}
    seen.clear()
    fn(torch.randn(2, 600, 70), 1)  # N 600: three tiles
    assert {c["BLOCK"] for k, c in seen if k.startswith("_k_cols")} == {32}
