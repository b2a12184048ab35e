"""The cols kernels of the one-read ops of one input read element by element (sum, mean, nansum,
amax, amin, vector_norm; plan.Plan.cols_stack) build the TILE-lane pairwise tree of a short row leaf by
leaf, one lane a column (STACK), where the view holds COLS_STACK_MIN columns or more, COLS_STACK_K a
batch row, at rows of at most COLS_STACK_N (in SPLIT runs below COLS_STACK_SPLIT_COLS columns):
leaf j meets the stacked roots its trailing one bits name, the earlier on the left, STACK leaves a
loop iteration (a group's stack resolved when the kernel compiles, its root the loop's). The same
combines in the same order as the tree over a [TILE, BLOCK] tile, so the same bits: these tests
compare the two walks at lengths around every tile the stack takes (up to LANES; past it, to
COLS_STACK_N, DEPTH elements a leaf as the LANES-lane walk's lane meets its tiles) and at every group, with NaNs, infinities and zeros of both signs, and check which
launches and plans take it and that the empirical check compares it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import torch

from redgen import plan
from redgen.pipeline import build_spec
from redgen.verify.empirical import case as empirical_case
from tests.launch_spy import knobs, launches

ROOT = Path(__file__).resolve().parent.parent
# every tile the stack takes (8 .. 256), a length either side of each, two elements a leaf (257 .. 512), and past them
LENGTHS = (1, 5, 8, 9, 16, 17, 31, 33, 63, 64, 65, 100, 127, 128, 129, 200, 255, 256, 257, 300, 512, 513)
OPS = ("sum", "mean", "nansum", "amax", "amin", "vector_norm")


def _bits(t: torch.Tensor) -> torch.Tensor:
    """The bits of a float tensor: a NaN equals itself, -0.0 differs from 0.0."""
    return t.view({4: torch.int32, 2: torch.int16}[t.element_size()])


def _tricky(n: int, gen: torch.Generator) -> torch.Tensor:
    """[2, n, 3]: random, with a -0.0 and +0.0 in one column, infinities of both signs and a NaN
    in another (the NaN first: nansum drops it, the others propagate it)."""
    x = torch.randn(2, n, 3, generator=gen)
    x[0, n // 2, 1] = -0.0
    if n > 3:
        x[1, 0, 1], x[1, 1, 1] = -0.0, 0.0
        x[0, 1, 2], x[0, 2, 2], x[1, n - 1, 2] = float("inf"), -float("inf"), float("nan")
    return x


@pytest.mark.parametrize("name", OPS)
def test_the_stack_gives_the_tile_walks_bits(name, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(2)
    for n in LENGTHS:
        x = _tricky(n, gen)
        seen.clear()
        tiled = fn(x, 1)  # 6 columns: the TILE walk
        assert [c["STACK"] for k, c in seen if k == "_k_cols_fused"] == [0], n
        seen.clear()
        with knobs(mod, COLS_STACK_MIN=0, COLS_STACK_K=0):
            stacked = fn(x, 1)
        leaves = (1 if n <= 8 else min(plan.COLS_STACK_LEAVES, mod._tile(n))) if n <= mod.LANES \
            else plan.COLS_STACK_DEEP_LEAVES if n <= plan.COLS_STACK_N else 0
        depth = -(-n // mod._tile(n)) if leaves else 1
        assert [(c["STACK"], c["TILE"], c["DEPTH"]) for k, c in seen if k == "_k_cols_fused"] == [
            (leaves, mod._tile(n), depth)], n
        assert torch.equal(_bits(stacked), _bits(tiled)), (name, n)


@pytest.mark.parametrize("name", ["nansum", "sum"])
def test_bf16_loads_widen_to_the_same_bits(name, monkeypatch):
    """nansum's cols walks widen their loads through _rg_f32 (a bfloat16 by a shift of its bits, where
    the compiler would run x != x on packed pairs: exprs.narrowed), sum's through a conversion, as
    nansum's rows kernels do: the same values, so the stack gives the TILE walk's bits on bfloat16
    with NaNs, infinities, zeros of both signs and subnormals."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    source = Path(mod.__file__).read_text()
    assert ("_rg_f32(tl.load(" in source) is ("in_0_v = _rg_f32(in_0_v)" in source) is (name == "nansum")
    assert "in_0_v = in_0_v.to(tl.float32)" in source  # the rows kernels'
    x = _tricky(300, torch.Generator().manual_seed(5)).to(torch.bfloat16)
    assert torch.equal(_bits(fn(x.transpose(1, 2).contiguous(), 2)), _bits(fn(x, 1)))  # rows = cols
    gen = torch.Generator().manual_seed(6)
    for n in (5, 33, 100, 128):
        x = _tricky(n, gen).to(torch.bfloat16)
        x[1, n // 3, 0] = torch.tensor(1e-39).to(torch.bfloat16)  # a subnormal
        tiled = fn(x, 1)
        with knobs(mod, COLS_STACK_MIN=0, COLS_STACK_K=0):
            stacked = fn(x, 1)
        assert torch.equal(_bits(stacked), _bits(tiled)), (name, n)


@pytest.mark.parametrize("leaves", [1, 2, 4, 8, 16])
def test_every_group_of_leaves_gives_the_same_bits(leaves, monkeypatch):
    """STACK leaves a loop iteration, from any TILE (COLS_STACK_GROUP_TILE 1): at most TILE and 8 (the
    kernels' group stack: 16 launches 8), the same bits as the TILE walk at every tile."""
    mod = importlib.import_module("generated.cuda.sum")
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(3)
    for n in (1, 2, 3, 7, 8, 13, 16, 31, 33, 64, 100, 128):
        x = _tricky(n, gen)
        tiled = mod.sum(x, 1)
        seen.clear()
        with knobs(mod, COLS_STACK_MIN=0, COLS_STACK_K=0,
                   COLS_STACK_LEAVES=leaves, COLS_STACK_GROUP_TILE=1):
            stacked = mod.sum(x, 1)
        assert [c["STACK"] for k, c in seen] == [min(leaves, mod._tile(n), 8)], n
        assert torch.equal(_bits(stacked), _bits(tiled)), (leaves, n)


def test_which_views_take_the_stack(monkeypatch):
    """From COLS_STACK_MIN columns (M * K), COLS_STACK_K a batch row, at rows of at most COLS_STACK_N
    (past LANES, where the input's elements take fewer than COLS_STACK_DEEP_ITEMSIZE bytes, bf16 and
    f16, only from COLS_STACK_DEEP_NARROW_MIN columns; there, and at those elements on as many columns
    whatever the row, blocks of COLS_STACK_DEEP_BLOCK_BYTES a row, runs up to COLS_STACK_DEEP_PROGRAMS
    programs), a row longer than COLS_STACK_ONE_RUN_N in one run only from the runs' target.
    Below COLS_STACK_SPLIT_COLS columns a column's leaves in SPLIT runs (the power of two
    bringing the columns to it, at most COLS_STACK_SPLIT_MAX and TILE over the group; not two at a flat
    K), COLS_STACK_BLOCK / SPLIT columns a program; in one run blocks of COLS_STACK_SMALL_BLOCK below
    COLS_STACK_SMALL columns, else COLS_STACK_BLOCK. Groups of COLS_STACK_WIDE_LEAVES at rows longer than
    COLS_STACK_LONG_N from COLS_STACK_SMALL columns and a K of COLS_STACK_BLOCK (COLS_STACK_FLAT_LEAVES
    at a K below COLS_FLAT_BELOW), COLS_STACK_DEEP_LEAVES past LANES. A natural call there launches
    STACK, DEPTH and SPLIT, with the TILE walk's bits."""
    mod = importlib.import_module("generated.cuda.sum")
    small, wide, at, top = plan.COLS_STACK_SMALL_BLOCK, plan.COLS_STACK_BLOCK, plan.COLS_STACK_MIN, plan.COLS_STACK_N
    lanes, deep = mod.LANES, plan.COLS_STACK_DEEP_ITEMSIZE
    assert top == 2 * lanes and deep == 4
    for n in (1, 64, 65, 128, 129, lanes):
        for k in (2, 8, 64, 1024):
            for isz in (2, 4):
                assert mod._cols_stack(-(-at // k), n, k, isz) and not mod._cols_stack((at - 1) // k, n, k, isz), (n, k)
    # past LANES: DEPTH elements a leaf up to COLS_STACK_N, at 2-byte elements from
    # COLS_STACK_DEEP_NARROW_MIN columns; a program's block COLS_STACK_DEEP_BLOCK_BYTES of a row (1024
    # bf16 columns, 512 f32) in one run, the runs bringing the view to COLS_STACK_DEEP_PROGRAMS blocks
    assert [mod._stack_depth(n) for n in (1, lanes, lanes + 1, top)] == [1, 1, 2, 2]
    narrow, programs = plan.COLS_STACK_DEEP_NARROW_MIN, plan.COLS_STACK_DEEP_PROGRAMS
    assert at < narrow and (plan.COLS_STACK_DEEP_BLOCK_BYTES, programs) == (2048, 4096)
    for n in (lanes + 1, 300, top):
        assert mod._cols_stack(1, n, at, deep) and not mod._cols_stack(1, n, at, deep // 2), n
        assert mod._cols_stack(1, n, narrow, deep // 2) and not mod._cols_stack(1, n, narrow - 1, deep // 2), n
        assert mod._cols_stack(narrow // 64, n, 64, deep // 2) and mod._stack_depth(n) == 2
        assert mod._stack_leaves(1, n, 1 << 20, 4) == plan.COLS_STACK_DEEP_LEAVES
        assert [mod._stack_block(1, n, 1, isz) for isz in (2, 4)] == [1024, 512]
        for isz in (2, 4):  # runs until the columns times the runs pass 4096 blocks
            block = 2048 // isz
            assert [mod._stack_split(1, n, c, isz) for c in (block * programs, block * programs // 2,
                                                            block * programs // 4, narrow)] == [1, 2, 4, 8]
            assert mod._walk_block(1, n, block * programs, isz) == block
            assert mod._walk_block(1, n, block * programs // 4, isz) == block // 4
        assert mod._walk_block(1, n, narrow - 1, 2) == 0
    assert not mod._cols_stack(1, top + 1, 1 << 20, deep) and mod._walk_block(1, top + 1, 1 << 20, deep) == 0
    # rows of at most LANES: COLS_STACK_BLOCK, except 2-byte elements on COLS_STACK_DEEP_NARROW_MIN columns
    # or more, which take the byte blocks and their runs there too; f32 as before whatever the columns
    assert mod._stack_block(1, lanes, 1 << 20, 4) == mod._stack_block(1, lanes, narrow - 1, 2) == wide
    for n in (9, 100, 128, lanes):
        assert mod._stack_block(1, n, narrow, 2) == mod._stack_block(narrow // 64, n, 64, 2) == 1024
        assert mod._stack_split(1, n, 1024 * programs, 2) == 1 and mod._walk_block(1, n, 1024 * programs, 2) == 1024
        split = mod._stack_split(1, n, narrow, 2)
        assert split == min(8, mod._tile(n) // mod._stack_leaves(1, n, narrow, 2)) and mod._walk_block(1, n, narrow, 2) == 1024 // split
        with knobs(mod, COLS_STACK_DEEP_NARROW_MIN=1 << 62):
            f32 = [(f(1, n, c, 4), f(c // 64, n, 64, 4)) for f in (mod._stack_split, mod._walk_block, mod._stack_leaves)
                   for c in (narrow, 1 << 20)]
        assert [(f(1, n, c, 4), f(c // 64, n, 64, 4)) for f in (mod._stack_split, mod._walk_block, mod._stack_leaves)
                for c in (narrow, 1 << 20)] == f32
    # a whole block a batch row for COLS_STACK_WIDE_LEAVES: 1024 bf16 columns there, COLS_STACK_BLOCK on
    # a view of one run (4096 byte blocks or more)
    assert mod._stack_leaves(1, 200, 1 << 20, 2) == plan.COLS_STACK_WIDE_LEAVES
    assert mod._stack_leaves(1024, 200, 256, 2) == plan.COLS_STACK_LEAVES != mod._stack_leaves(1024, 200, 256, 4)
    one_run = 1024 * programs
    assert mod._stack_split(one_run // 256, 200, 256, 2) == 1 and mod._stack_split(one_run // 512, 200, 256, 2) == 2
    assert mod._stack_leaves(one_run // 256, 200, 256, 2) == plan.COLS_STACK_WIDE_LEAVES
    assert mod._stack_leaves(one_run // 512, 200, 256, 2) == mod._stack_leaves(one_run // 128, 200, 128, 2) == plan.COLS_STACK_LEAVES
    # rows of 129-256 at a flat K on fewer than COLS_STACK_SPLIT_COLS columns: two runs are not taken
    # there, so f32 keeps the TILE walk, bf16 takes the stack in runs to 4096 byte blocks
    assert mod._cols_stack(2048, 160, 64, 2) and mod._stack_split(2048, 160, 64, 2) == 8
    assert not mod._cols_stack(2048, 160, 64, 4)
    # a row longer than COLS_STACK_ONE_RUN_N in one run only from COLS_STACK_SPLIT_COLS columns: two runs
    # of a flat K are not taken, so 131072 flat columns of rows of 160 keep the TILE walk
    one, cols = plan.COLS_STACK_ONE_RUN_N, plan.COLS_STACK_SPLIT_COLS
    assert not mod._cols_stack(cols // 2 // 64, one + 1, 64, 4) and mod._cols_stack(cols // 2 // 64, one, 64, 4)
    assert mod._cols_stack(cols // 64, one + 1, 64, 4) and mod._cols_stack(cols // 2 // 256, one + 1, 256, 4)
    assert mod._stack_split(cols // 2 // 64, one + 1, 64, 4) == 1
    assert mod._stack_split(cols // 2 // 256, lanes, 256, 4) == 2  # f32: 2-byte elements take the byte blocks there (above)
    assert mod._schedule(at, 8, 1, 4)[2] == "rows"  # K 1: the rows kernels (COLS_STACK_K 2: any K > 1)
    # runs (f32): the columns times SPLIT up to COLS_STACK_SPLIT_COLS, COLS_STACK_BLOCK / SPLIT columns a program
    cols = plan.COLS_STACK_SPLIT_COLS
    assert [mod._stack_split(1, 128, c, 4) for c in (cols, cols // 2, cols // 4, cols // 8, at)] == [1, 2, 4, 8, 8]
    assert [mod._walk_block(1, 128, c, 4) for c in (cols // 2, cols // 4, cols // 8)] == [wide // 2, wide // 4, wide // 8]
    assert mod._stack_split(cols // 2 // 64, 128, 64, 4) == 1 and mod._stack_split(cols // 4 // 64, 128, 64, 4) == 4
    assert mod._stack_split(1, 16, at, 4) == 4 and mod._stack_split(1, 8, at, 4) == min(8, mod._tile(8))
    with knobs(mod, COLS_STACK_SPLIT_MAX=1):
        assert mod._stack_split(1, 128, at, 4) == 1 and mod._walk_block(1, 128, at, 4) == small
    # one run: blocks of COLS_STACK_SMALL_BLOCK below COLS_STACK_SMALL columns
    assert cols // 2 < plan.COLS_STACK_SMALL < cols
    assert mod._walk_block(1, 128, plan.COLS_STACK_SMALL - 1, 4) == small
    assert mod._walk_block(1, 128, plan.COLS_STACK_SMALL, 4) == wide
    # groups of COLS_STACK_WIDE_LEAVES at rows past COLS_STACK_LONG_N from COLS_STACK_SMALL columns,
    # else COLS_STACK_LEAVES
    eight, four, cols = plan.COLS_STACK_WIDE_LEAVES, plan.COLS_STACK_LEAVES, plan.COLS_STACK_SMALL
    for n in (plan.COLS_STACK_LONG_N + 1, 128, lanes):
        assert mod._stack_leaves(cols // 256, n, 256, 4) == mod._stack_leaves(1, n, cols, 4) == eight != four
        assert mod._stack_leaves(1, n, cols - 1, 4) == four
        assert mod._stack_leaves(cols // 128, n, 128, 4) == four  # a block of columns across batch rows
    assert mod._stack_leaves(1, plan.COLS_STACK_LONG_N, 1 << 20, 4) == four
    assert importlib.import_module("generated.cuda.nansum").COLS_STACK_WIDE_LEAVES == four  # its spec's tune
    # and COLS_STACK_FLAT_LEAVES at a K below COLS_FLAT_BELOW (flat columns) from COLS_STACK_SMALL columns
    flat8, k = plan.COLS_STACK_FLAT_LEAVES, plan.COLS_FLAT_BELOW - 1
    for n in (128, lanes):
        assert mod._stack_leaves(-(-cols // k), n, k, 4) == mod._stack_leaves(cols // 16, n, 16, 4) == flat8 != four
        assert mod._stack_leaves((cols - 1) // k, n, k, 4) == four
    assert mod._stack_leaves(cols, 64, 16, 4) == four
    for name in ("amax", "amin"):  # their specs' tune: 8 lost in bf16 (H200 run 115)
        assert importlib.import_module(f"generated.cuda.{name}").COLS_STACK_FLAT_LEAVES == four
    with knobs(mod, COLS_STACK_LEAVES=1, COLS_STACK_GROUP_TILE=1):  # the loop's stack: 128 groups at most
        assert mod._stack_leaves(cols // 128, lanes, 128, 4) == 2 and mod._stack_leaves(1, 128, 1, 4) == 1
    seen = launches(mod, monkeypatch)
    x = torch.randn(1, 9, at, generator=torch.Generator().manual_seed(4))
    got = mod.sum(x, 1)
    assert [(k, c["STACK"], c["TILE"], c["SPLIT"], c["BLOCK"]) for k, c in seen] == [
        ("_k_cols_fused", plan.COLS_STACK_LEAVES, 16, 4, wide // 4)]
    with knobs(mod, COLS_STACK_MIN=at + 1):
        assert torch.equal(_bits(mod.sum(x, 1)), _bits(got))
    # bf16 there: blocks of 256 columns as f32 (the view is below COLS_STACK_DEEP_NARROW_MIN), 1024 / SPLIT
    # where that is lowered to it; the TILE walk's bits
    for narrow_min, block in ((plan.COLS_STACK_DEEP_NARROW_MIN, wide // 4), (at, 1024 // 4)):
        seen.clear()
        with knobs(mod, COLS_STACK_DEEP_NARROW_MIN=narrow_min):
            got = mod.sum(x.to(torch.bfloat16), 1)
        assert [(k, c["STACK"], c["TILE"], c["SPLIT"], c["BLOCK"]) for k, c in seen] == [
            ("_k_cols_fused", plan.COLS_STACK_LEAVES, 16, 4, block)]
        with knobs(mod, COLS_STACK_MIN=at + 1):
            assert torch.equal(_bits(mod.sum(x.to(torch.bfloat16), 1)), _bits(got))
    # a row past LANES on COLS_STACK_MIN columns: the stack in f32 (DEPTH 2, COLS_STACK_DEEP_LEAVES, 8
    # runs of blocks of 64), the TILE walk in bf16 (below COLS_STACK_DEEP_NARROW_MIN), its stack where
    # that is lowered to them (blocks of 128), the TILE walk's bits everywhere
    x = torch.randn(1, lanes + 3, at, generator=torch.Generator().manual_seed(5))
    for dtype, narrow_min, want in ((torch.float32, narrow, (plan.COLS_STACK_DEEP_LEAVES, 2, 8, 64)),
                                    (torch.bfloat16, narrow, (0, 1, 1, 0)),
                                    (torch.bfloat16, at, (plan.COLS_STACK_DEEP_LEAVES, 2, 8, 128))):
        seen.clear()
        with knobs(mod, COLS_STACK_DEEP_NARROW_MIN=narrow_min):
            got = mod.sum(x.to(dtype), 1)
        assert [(c["STACK"], c["DEPTH"], c["SPLIT"], c["BLOCK"] if c["STACK"] else 0)
                for k, c in seen if k == "_k_cols_fused"] == [want], dtype
        with knobs(mod, COLS_STACK_MIN=at + 1):
            assert torch.equal(_bits(mod.sum(x.to(dtype), 1)), _bits(got))


@pytest.mark.parametrize("split", [1, 2, 4, 8])
def test_every_run_count_gives_the_same_bits(split, monkeypatch):
    """SPLIT runs of a column's leaves (COLS_STACK_SPLIT_MAX forcing at most `split`), each run's root a
    node of the TILE-lane tree, the tree's levels above them meeting the roots: the TILE walk's bits at
    every tile, with NaNs, infinities and zeros of both signs, in f32 and bf16."""
    mod = importlib.import_module("generated.cuda.nansum")
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(7)
    for n in (3, 8, 16, 33, 100, 128, 200, 256, 300, 512):
        for dtype in (torch.float32, torch.bfloat16):
            # K 130: not flat (COLS_FLAT_BELOW), so two runs are taken too
            x = torch.cat([_tricky(n, gen), torch.randn(2, n, 127, generator=gen)], 2).to(dtype)
            tiled = mod.nansum(x, 1)
            seen.clear()
            # past LANES bf16 too (COLS_STACK_DEEP_NARROW_MIN lowered to the view's columns)
            with knobs(mod, COLS_STACK_MIN=0, COLS_STACK_K=0, COLS_STACK_SPLIT_MAX=split,
                       COLS_STACK_DEEP_NARROW_MIN=0):
                stacked = mod.nansum(x, 1)
                want = min(split, mod._tile(n) // mod._stack_leaves(2, n, 130, x.element_size()))
                assert mod._stack_split(2, n, 130, x.element_size()) == want
            assert [c["SPLIT"] for k, c in seen if k == "_k_cols_fused"] == [want], (n, split)
            assert torch.equal(_bits(stacked), _bits(tiled)), (split, n, dtype)


@pytest.mark.parametrize(("name", "stack"), [
    *((n, True) for n in OPS),
    ("nll_loss", False),  # two inputs, reads the position
    ("mean_2axes", False),  # two reduce axes walked in place
    ("argmax", False),  # order-free: its own one-lane walk (plan.Plan.free_cols)
    ("softmax_held", False), ("var_held", False),  # outputs over the reduce axis; two stages
    ("logsumexp", False),  # softmax_stats: a lane tree of its own
])
def test_which_plans_take_the_stack(name, stack):
    built = build_spec(ROOT / "specs" / f"{name}.red", "cuda", empirical=False)
    assert built.plan.cols_stack is stack
    assert ("STACK: tl.constexpr" in built.source) is stack
    assert ("(its cols_stack form)" in built.source) is stack  # the certificate says so
    assert ("cols_stack" in empirical_case(built.plan).get("cols_forms", {})) is stack
    ascend = build_spec(ROOT / "specs" / f"{name}.red", "ascend", empirical=False)
    assert not ascend.plan.cols_stack and "STACK" not in ascend.source


@pytest.mark.parametrize("tampered", [False, True])
def test_the_empirical_check_compares_the_stack(tampered, monkeypatch):
    """Its cols_stack form (Target.empirical_cols_forms) runs at every length at K > 1: a stack that
    gave other bits than the natural call fails the check with the form's name."""
    from redgen.verify.worker import _Runner, check, load_op

    spec = empirical_case(build_spec(ROOT / "specs" / "sum.red", "cuda", empirical=False).plan)
    spec["inputs"][0]["dtypes"] = ["f32"]
    spec["N"] = {"chunk_tail": 300, "chunks": 300, "prime": 300, "tile": 35}
    spec["batch_sizes"], spec["after_sizes"], spec["positions"] = [1, 2], [1, 3], [0]
    mod = importlib.import_module("generated.cuda.sum")
    plain = mod.sum

    def walked(x, dim, **kw):
        y = plain(x, dim, **kw)
        if tampered and mod.COLS_STACK_K == 0 and x.shape[-1] > 1 and x.shape[dim] <= mod.COLS_STACK_N:
            y = (y.view(torch.int32) ^ 1).view(torch.float32)  # one bit off, in the stack only
        return y

    monkeypatch.setattr(mod, "sum", walked)
    run = _Runner(mod, spec)
    assert list(run.cols_forms) == ["cols_stack"]
    failure, compared = check(run, spec, load_op(spec))
    if tampered:
        # N 300 (its first length): a row past LANES, two elements a leaf
        assert failure == "the cols_stack form and the natural call differ (f32, N=300, K=3)"
    else:
        assert failure is None and compared > 4


@pytest.mark.parametrize("name", ["sum", "argmax"])
def test_flat_columns_give_the_same_bits(name, monkeypatch):
    """The stack and the order-free walk take their columns in their flat order m * K + k, across batch
    rows, where K is shorter than COLS_FLAT_BELOW and their block (FLAT): which program computes a
    column, so the bits of a block cut to K (COLS_FLAT_BELOW 0), of the wider block and of the TILE
    walk, at every K."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    # (the stack in one run: its block of columns, not one cut by runs, K 64 included)
    walk = dict(COLS_STACK_MIN=0, COLS_STACK_K=0, COLS_STACK_SPLIT_MAX=1) if name == "sum" \
        else dict(FREE_COLS_MIN=0, FREE_COLS_K=0, FREE_COLS_LONG_MIN=0, FREE_COLS_LONG_K=0, FREE_COLS_FLAT_MIN=0)
    seen = launches(mod, monkeypatch)
    gen = torch.Generator().manual_seed(5)
    shapes = ((3, 9, 2), (5, 33, 3), (2, 100, 17), (7, 8, 64), (1, 5, 127))
    for (m, n, k) in shapes + (((2, 300, 5),) if name == "argmax" else ()):  # a longer row: its own lanes
        x = torch.randn(m, n, k, generator=gen)
        x[0, n // 2, 0] = float("nan")
        tiled = fn(x, 1)
        seen.clear()
        with knobs(mod, **walk):
            flat = fn(x, 1)
            block = mod._schedule(m, n, k, 4)[3]  # f32 elements
        assert [c["FLAT"] for _, c in seen] == [True] and block > k, (m, n, k)  # a block across batch rows
        with knobs(mod, **walk, COLS_FLAT_BELOW=0):
            cut = fn(x, 1)
        with knobs(mod, **walk, **{"COLS_STACK_SMALL" if name == "sum" else "FREE_COLS_SMALL": 0}):
            wide = fn(x, 1)  # the walk's wider block, whatever the columns
        got = [(_bits(t) if t.is_floating_point() else t) for t in (tiled, flat, cut, wide)]
        assert all(torch.equal(got[0], g) for g in got[1:]), (name, m, n, k)
