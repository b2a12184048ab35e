"""The walks of short rows in fewer lanes (plan.Plan.short_tile, SHORT_TILE_MIN).

A row of at most half the lanes is walked in TILE lanes, the power of two holding it, and the
kernel folds in the subtrees of empty lanes the LANES-lane tree would meet: the same bits as the
LANES-lane walk (SHORT_TILE_MAX = 0), which these tests compare at lengths around every power of two
the walk takes, in the cols kernels, the rows kernel and the row kernel (BLOCK rows a program), for
every combiner kind it serves (a sum, a max, an order-free index pair, two stages, outputs over the
reduce axis, the row kernel's other inputs)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import torch

from redgen import plan
from redgen.pipeline import build_spec
from tests.launch_spy import launches
from tests.load_source import load_source

ROOT = Path(__file__).resolve().parent.parent

# lengths: the fewest lanes (8) and past them, every power of two up to half the lanes and one
# past it, and the first length the LANES-lane walk keeps
LENGTHS = (1, 5, 8, 9, 16, 17, 33, 64, 65, 100, 128, 129)


def _bits(t: torch.Tensor) -> torch.Tensor:
    """The bits of a float tensor (a NaN equals itself), anything else as it is."""
    if t.dtype.is_floating_point:
        return t.view({4: torch.int32, 2: torch.int16, 1: torch.uint8}[t.dtype.itemsize])
    return t


@pytest.mark.parametrize(("name", "call"), [
    ("sum", lambda f, x: f(x, 1)),
    ("amax", lambda f, x: f(x, 1)),
    ("argmax", lambda f, x: f(x, 1)),
    ("var_held", lambda f, x: f(x, 1)),
    ("softmax_held", lambda f, x: f(x, 1)),
])
def test_the_short_walk_gives_the_lanes_walks_bits(name, call, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(0)
    for n in LENGTHS:
        x = torch.randn(2, n, 3, generator=gen)
        x[0, n // 2, 1] = -0.0  # a negative zero inside the row
        seen.clear()
        short = call(fn, x)
        tiles = [c["TILE"] for k, c in seen if k == "_k_cols_fused"]
        assert tiles == [256 if n > 128 else max(8, 1 << (n - 1).bit_length())], n
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 0)
        seen.clear()
        full = call(fn, x)
        assert [c["TILE"] for k, c in seen if k == "_k_cols_fused"] == [256]
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 128)
        assert torch.equal(_bits(short), _bits(full)), (name, n)


def test_a_row_of_special_values_keeps_its_bits(monkeypatch):
    """NaN, infinities and zeros of both signs, where an empty lane's state meets them."""
    mod = importlib.import_module("generated.cuda.sum")
    amax = importlib.import_module("generated.cuda.amax")
    x = torch.tensor([[float("nan"), 1.0, float("inf"), -0.0, -float("inf"), 0.0, -0.0, 2.5, 3.0]]).T
    x = torch.stack([x.repeat(1, 4), (-x).repeat(1, 4), torch.full((9, 4), -0.0)])  # [3, 9, 4]
    for m, f in ((mod, mod.sum), (amax, amax.amax)):
        short = f(x, 1)
        monkeypatch.setattr(m, "SHORT_TILE_MAX", 0)
        assert torch.equal(_bits(f(x, 1)), _bits(short))
        monkeypatch.setattr(m, "SHORT_TILE_MAX", 128)
    assert torch.equal(_bits(mod.sum(x[2:], 1)), _bits(torch.zeros(1, 4)))  # -0.0s sum to +0.0, as the lanes' walk


@pytest.mark.parametrize(("name", "block", "few"), [
    ("sum", 128, 256), ("mean", 128, 256), ("nansum", 64, 256), ("vector_norm", 64, 256), ("amax", 64, 256),
    ("amin", 64, 256), ("argmax", 64, 256), ("nll_loss", 64, 256), ("var_held", 32, 32), ("softmax_held", 32, 32)])
def test_short_rows_column_block(name, block, few, monkeypatch):
    """One reduction of one state component takes COLS_TILE_BLOCK columns (sum and mean their
    specs' tuned 128), a one-read op up to COLS_TILE_ELEMS elements a tile (2048 // 32 lanes = 64
    columns at N = 20, 256 at N = 5); several stages or outputs over the reduce axis keep the
    spec's block (H100 runs 86-88, 95)."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    for n, want in ((20, block), (5, few)):
        seen.clear()
        x = torch.randn(1, n, 300)
        if name == "nll_loss":
            fn(x, torch.randint(0, n, (1, 300)), 1)
        else:
            fn(x, 1)
        assert [c["BLOCK"] for k, c in seen if k.startswith("_k_cols")] == [want], n


@pytest.mark.parametrize(("name", "tile", "block"), [
    ("sum", True, True), ("nansum", True, True), ("vector_norm", True, True), ("amax", True, True),
    ("argmax", True, False), ("var_held", True, False), ("softmax_held", True, False), ("nll_loss", True, False),
    ("mean_2axes", True, True),
    ("logsumexp", False, False), ("cross_entropy", False, False),  # softmax_stats: a lane tree of its own
    ("var", False, False),  # welford: likewise
    ("rms_norm", True, False),  # its row kernel (no cols kernel)
])
def test_which_plans_walk_short_rows_in_fewer_lanes(name, tile, block):
    built = build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False)
    assert built.plan.short_tile is tile
    assert (built.plan.cols_tile_block == plan.COLS_TILE_BLOCK) is block
    assert ("TILE: tl.constexpr" in built.source) is tile
    assert ("(SHORT_TILE_MAX) in TILE" in built.source) is tile  # the certificate says so
    # the walks that take it: the cols kernels', and the row kernel's where it holds short rows (an op
    # that reads its row again), else the rows kernel's (a one-read op's row kernel holds long rows only)
    walks = (("cols",) if built.op.after else ()) + (("row",) if built.plan.row_holds_short else ("rows",))
    assert ("if shape in (" + ", ".join(f'"{w}"' for w in walks) in built.source) is tile
    ascend = build_spec(ROOT / "specs" / f"{name}.red", "ascend", empirical=False)
    assert not ascend.plan.short_tile and "SHORT_TILE" not in ascend.source


@pytest.mark.parametrize("name", ["sum", "argmax", "nansum"])
def test_the_rows_kernels_short_walk_gives_the_lanes_walks_bits(name, monkeypatch):
    """K == 1: BLOCK rows a program (ROWS_TILE_ELEMS // TILE), the last program's rows past M masked."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(1)
    for n in LENGTHS:
        x = torch.randn(37, n, generator=gen)
        seen.clear()
        short = fn(x, -1)
        tile = 256 if n > 128 else max(8, 1 << (n - 1).bit_length())
        assert [(c["TILE"], c["BLOCK"]) for k, c in seen] == [(tile, 1 if n > 128 else 2048 // tile)], n
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 0)
        seen.clear()
        full = fn(x, -1)
        assert [(c["TILE"], c["BLOCK"]) for k, c in seen] == [(256, 1)]
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 128)
        assert torch.equal(_bits(short), _bits(full)), (name, n)
        assert torch.equal(_bits(fn(x[5:6], -1)), _bits(short[5:6]))  # one row alone: the same bits


def _row_call(name: str, x: torch.Tensor):
    """The op's arguments on x [M, n]: its other inputs (a weight, a bias, a residual) drawn from
    n, and the last dim where the op's own default reduces every dim."""
    g = torch.Generator().manual_seed(x.shape[-1])
    n = x.shape[-1]
    more = {"rms_norm": lambda: (torch.randn(n, generator=g),),
            "layer_norm": lambda: (torch.randn(n, generator=g), torch.randn(n, generator=g)),
            "add_rms_norm": lambda: (torch.randn(x.shape, generator=g), torch.randn(n, generator=g)),
            "var_held": lambda: (-1,)}
    return (x, *more.get(name, tuple)())


@pytest.mark.parametrize("name", ["softmax_held", "rms_norm", "layer_norm", "add_rms_norm", "var_held", "fp8_quant"])
def test_the_row_kernels_short_walk_gives_the_lanes_walks_bits(name, monkeypatch):
    """K == 1 of an op with a row kernel: the row held in TILE lanes, BLOCK rows a program
    (ROWS_TILE_ELEMS // TILE), a warp a ROW_TILE_WARP_LANES elements; every output bit for bit as
    the row kernel's LANES-lane walk, and one row alone as within the block."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(2)
    for n in (1, 5, 8, 9, 17, 33, 64, 100, 128, 129):
        x = torch.randn(37, n, generator=gen)
        x[3, n // 2] = -0.0
        args = _row_call(name, x)
        seen.clear()
        short = fn(*args)
        tile = 256 if n > 128 else max(8, 1 << (n - 1).bit_length())
        block = 8 if n > 128 else 2048 // tile
        warps = 16 if n > 128 else 2048 // 256
        assert [(k, c["TILE"], c["BLOCK"], c["num_warps"]) for k, c in seen] == [("_k_rows_row", tile, block, warps)], n
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 0)
        seen.clear()
        full = fn(*args)
        assert [(k, c["TILE"], c["BLOCK"]) for k, c in seen] == [("_k_rows_row", 256, 8)]
        monkeypatch.setattr(mod, "SHORT_TILE_MAX", 128)
        short, full = (short if isinstance(short, tuple) else (short,)), (full if isinstance(full, tuple) else (full,))
        for a, b in zip(short, full, strict=True):
            assert torch.equal(_bits(a), _bits(b)), (name, n)
        one = fn(*(a[5:6] if isinstance(a, torch.Tensor) and a.shape == x.shape else a for a in args))
        for a, b in zip(one if isinstance(one, tuple) else (one,), short, strict=True):
            if b.shape[0] == 37:
                assert torch.equal(_bits(a), _bits(b[5:6])), (name, n)


def _short_case(name: str) -> dict:
    """The empirical check's case of `name`, cut to f32, one short length and small batches."""
    from redgen.verify.empirical import case

    c = case(build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False).plan)
    c["inputs"][0]["dtypes"] = ["f32"]
    c["N"] = {"chunk_tail": 300, "chunks": 300, "prime": 300, "tile": 35}
    c["batch_sizes"], c["after_sizes"], c["positions"] = [1, 2], [1, 3], [0]
    return c


@pytest.mark.parametrize("tampered", [None, "rows", "cols"])
def test_the_empirical_check_compares_the_short_walk_with_the_lanes_walk(tampered, monkeypatch):
    """Its long_tile form (Target.empirical_short_form) runs at the short lengths, in the rows and
    the cols kernels: a LANES-lane walk that gave other bits than the TILE walk fails the check."""
    from redgen.verify.worker import _Runner, check, load_op

    spec = _short_case("sum")
    assert spec["short_form"] == ["long_tile", "SHORT_TILE_MAX", 0]
    mod = importlib.import_module("generated.cuda.sum")
    plain = mod.sum

    def walked(x, dim, **kw):
        y = plain(x, dim, **kw)
        kernel = "cols" if x.shape[-1] > 1 else "rows"  # [M, N, K]: K > 1 takes the cols kernel
        if kernel == tampered and mod.SHORT_TILE_MAX == 0 and x.shape[dim] <= 128:
            y = (y.view(torch.int32) ^ 1).view(torch.float32)  # one bit off, in that kernel's LANES walk
        return y

    monkeypatch.setattr(mod, "sum", walked)
    failure, compared = check(_Runner(mod, spec), spec, load_op(spec))
    if tampered:
        k = 1 if tampered == "rows" else 3
        assert failure == f"the long_tile form and the natural call differ (f32, N=35, K={k})"
    else:
        assert failure is None and compared > 4


def test_one_lane_has_no_short_tile(tmp_path):
    """`tile N = 1` (the fuzzer's g717): rows of at most half a lane are none, so no TILE walk; the
    launcher had named SHORT_TILE_MAX, which it never defined (a NameError at the first call)."""
    spec = tmp_path / "one_lane.red"
    spec.write_text("op one_lane\nin x[M, N] : f32 | f16 | bf16\nout y[M] : i64\nacc f32\n"
                    "reduce N: s = argmax(x)\ny = s\ntile N = 1\nwarps 16\ncores 1\n")
    built = build_spec(spec, "cuda", empirical=False)
    assert not built.plan.short_tile and "SHORT_TILE" not in built.source
    mod = load_source(tmp_path, "one_lane_mod", built.source)
    x = torch.randn(3, 7, generator=torch.Generator().manual_seed(0))
    assert torch.equal(mod.one_lane(x, dim=1), x.argmax(1))
