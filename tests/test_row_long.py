"""cuda's row kernel on rows of 8192-32768 elements (redgen/plan.py ROW_MAX, ROW_STACK_MAX), in
its own form (tests/test_row_across.py: the form across chunks, here switched off).

Such a row holds three to eight chunks of 4096. The kernel stacks the chunks' [BLOCK, LANES]
partials as the rows of one tile and meets their lanes in one call of the pairwise tree (NP),
and a 16-bit row is held as loaded and widened at each use (RAW; on grids of more than
ROW_FEW_PROGRAMS programs two values a 32-bit word, PACK), in ROW_LONG_WARPS warps. Each
changes where a value sits, never which values combine: the bits must equal the chunked walks'
(ROW_MAX_TILES = 0, fused or split), for every dtype, at two and at several chunks.
"""

from __future__ import annotations

import pytest
import torch

from generated.cuda import layer_norm, log_softmax_held, rms_norm, softmax_held
from tests.launch_spy import launches

SHAPE, WARPS = 2, 5  # fields of _schedule's result
MODULES = {"rms_norm": rms_norm, "layer_norm": layer_norm, "softmax_held": softmax_held,
           "log_softmax_held": log_softmax_held}


@pytest.fixture(autouse=True)
def _row_form(monkeypatch):
    """The row kernel's own form: its form across chunks off (ROW_ACROSS_MIN and ROW_ACROSS_EVEN_MIN
    past every row, the empirical check's "row" form)."""
    for mod in MODULES.values():
        monkeypatch.setattr(mod, "ROW_ACROSS_MIN", 1 << 62)
        monkeypatch.setattr(mod, "ROW_ACROSS_EVEN_MIN", 1 << 62)


def _call(name, mod, x):
    n = x.shape[-1]
    g = torch.Generator().manual_seed(n)
    w = (1 + 0.1 * torch.randn(n, generator=g)).to(x.dtype)
    b = (0.1 * torch.randn(n, generator=g)).to(x.dtype)
    if name == "layer_norm":
        out = mod.layer_norm(x, w, b)
    elif name.startswith("rms_norm"):  # rms_norm, rms_norm_rstd
        out = getattr(mod, name)(x, w)
    else:
        out = getattr(mod, name)(x, -1)
    return out if isinstance(out, tuple) else (out,)


def _bits(t: torch.Tensor) -> torch.Tensor:
    return t.view({2: torch.int16, 4: torch.int32}[t.element_size()])


def _walked_bits_equal(name, mod, x, held, monkeypatch) -> bool:
    """Whether the chunked walk (ROW_MAX_TILES 0: the row kernel off) gives `held`'s bits."""
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    walked = _call(name, mod, x)
    return all(torch.equal(_bits(a), _bits(b)) for a, b in zip(held, walked, strict=True))


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("n", [12293, 16384])  # two chunks (NP 2): tests/test_norm_softmax.py
def test_long_rows_held_have_the_chunked_walks_bits(name, dtype, n, monkeypatch):
    mod = MODULES[name]
    x = (torch.randn(2, n, generator=torch.Generator().manual_seed(n)) * 3).to(dtype)
    x[1, 7] = -40.0
    seen = launches(mod, monkeypatch)
    held = _call(name, mod, x)
    (kernel, consts), = seen
    assert kernel == "_k_rows_row"
    chunks = -(-n // 4096)
    long = n > mod.ROW_LONG
    assert consts["NCH"] == chunks
    assert consts["NP"] == (mod.ROW_STACK if n > mod.ROW_STACK_LONG else 1 << (chunks - 1).bit_length())
    assert consts["RAW"] == (dtype == torch.bfloat16 and long)
    for split_below in (0, 1 << 62):  # the fused walk, then the split path
        monkeypatch.setattr(mod, "SPLIT_BELOW", split_below)
        assert _walked_bits_equal(name, mod, x, held, monkeypatch), split_below


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_packed_rows_have_the_chunked_walks_bits(name, dtype, monkeypatch):
    """PACK (two 16-bit values a 32-bit word, held so and split back at each use), forced on a
    short grid (ROW_FEW_PROGRAMS 0): the bits of the chunked walks, planted NaN and -inf included."""
    mod = MODULES[name]
    n = 9000
    x = (torch.randn(3, n, generator=torch.Generator().manual_seed(3)) * 3).to(dtype)
    x[1, 7], x[2, 4097] = float("nan"), float("-inf")
    monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", 0)
    seen = launches(mod, monkeypatch)
    packed = _call(name, mod, x)
    assert [(k, c["PACK"]) for k, c in seen] == [("_k_rows_row", True)]
    assert _walked_bits_equal(name, mod, x, packed, monkeypatch)


def test_rows_pack_only_where_every_word_is_whole_on_long_grids(monkeypatch):
    """PACK needs RAW, more than ROW_FEW_PROGRAMS programs, N and the row stride even, s_n 1 and a
    16-byte aligned pointer; any other call holds one value a register."""
    w = torch.ones(9000, dtype=torch.bfloat16)
    base = torch.ones(2, 9010, dtype=torch.bfloat16)
    seen = launches(rms_norm, monkeypatch)
    monkeypatch.setattr(rms_norm, "ROW_FEW_PROGRAMS", 0)
    rms_norm.rms_norm(base[:, :9000], w)  # a row stride of 9010: even
    rms_norm.rms_norm(base[:, 2:9002], w)  # 4 bytes past an aligned pointer
    rms_norm.rms_norm(torch.ones(2, 9001, dtype=torch.bfloat16)[:, :9000], w)  # an odd row stride
    rms_norm.rms_norm(torch.ones(2, 9001, dtype=torch.bfloat16), torch.ones(9001, dtype=torch.bfloat16))  # odd N
    rms_norm.rms_norm(torch.ones(2, 9000), torch.ones(9000))  # f32: not RAW
    monkeypatch.setattr(rms_norm, "ROW_FEW_PROGRAMS", 2)
    rms_norm.rms_norm(base[:, :9000], w)  # a grid of 2 programs: not more than ROW_FEW_PROGRAMS
    assert [c["PACK"] for _, c in seen] == [True, False, False, False, False, False]


def test_long_rows_take_their_warps_and_short_ones_keep_theirs(monkeypatch):
    """At most ROW_LONG elements the schedule's warps; past it ROW_LONG_WARPS, and RAW for 16-bit
    inputs (the warps move no value: test_long_rows_held_...). A short grid's 8 warps (ROW_FEW_WARPS,
    4 as shipped, which a long row's 4 would not tell apart)."""
    monkeypatch.setattr(rms_norm, "ROW_FEW_WARPS", 8)
    seen = launches(rms_norm, monkeypatch)
    for dtype in (torch.float32, torch.bfloat16):
        for n in (8192, 8193):
            rms_norm.rms_norm(torch.ones(1, n, dtype=dtype), torch.ones(n, dtype=dtype))
    warps = [(c["num_warps"], c["RAW"]) for _, c in seen]
    short, long = rms_norm._schedule(1, 8192, 1, 4)[WARPS], rms_norm._schedule(1, 8193, 1, 4)[WARPS]
    assert long == rms_norm.ROW_LONG_WARPS != short
    assert warps == [(short, False), (long, False), (short, False), (long, True)]


def test_more_long_row_warps_than_a_tile_has_lanes_still_launch(monkeypatch):
    """ROW_LONG_WARPS past LANES / 32 (threads holding copies): the output sweep's group of other
    inputs (MAPG) stays at least one tile, and the bits are the chunked walks'."""
    x = torch.randn(2, 9000, generator=torch.Generator().manual_seed(9))
    monkeypatch.setattr(layer_norm, "ROW_LONG_WARPS", 4 * layer_norm.LANES // 32)
    seen = launches(layer_norm, monkeypatch)
    held = _call("layer_norm", layer_norm, x)
    assert seen[0][1]["num_warps"] == 4 * layer_norm.LANES // 32 and seen[0][1]["MAPG"] >= 1
    assert _walked_bits_equal("layer_norm", layer_norm, x, held, monkeypatch)


def test_rows_of_three_chunks_stack_to_four_and_longer_ones_to_the_stack(monkeypatch):
    """NP: the power of two holding the chunks up to ROW_STACK_LONG elements, ROW_STACK past it."""
    seen = launches(rms_norm, monkeypatch)
    for n in (8192, 8193, 12288, 12289):
        rms_norm.rms_norm(torch.ones(1, n), torch.ones(n))
    assert [c["NP"] for _, c in seen] == [2, 4, 4, rms_norm.ROW_STACK]
    assert rms_norm.ROW_STACK_LONG == 12288


def test_a_row_of_more_chunks_than_the_stack_meets_them_a_chunk_at_a_time(monkeypatch):
    """ROW_MAX_TILES raised past what the module's stack helpers hold: NP 1, the tree a chunk,
    the same bits."""
    x = torch.randn(1, 5 * 4096 + 3, generator=torch.Generator().manual_seed(5))
    monkeypatch.setattr(rms_norm, "ROW_MAX_TILES", 96)
    monkeypatch.setattr(rms_norm, "ROW_STACK", 4)  # and fewer helpers than chunks
    seen = launches(rms_norm, monkeypatch)
    held = _call("rms_norm", rms_norm, x)
    assert seen[0][0] == "_k_rows_row" and seen[0][1]["NP"] == 1 and seen[0][1]["NCH"] == 6
    assert _walked_bits_equal("rms_norm", rms_norm, x, held, monkeypatch)


def test_the_row_bound_is_32768_and_past_it_the_chunks_are_walked():
    assert rms_norm.ROW_MAX_TILES * rms_norm.LANES == 32768 and rms_norm.ROW_STACK == 8
    assert rms_norm._schedule(1, 32768, 1, 4)[SHAPE] == "row"
    assert rms_norm._schedule(1, 32769, 1, 4)[SHAPE] == "rows"
