"""The cols tile walk of 16-bit rows of one chunk at COLS_TILE_WIDE_BLOCK columns a program
(redgen/plan.py): sum, mean, nansum, amax, amin and vector_norm.

The block never shapes an order (the lane tree is explicit; the certificate's kernel-shapes note):
H200 runs 180-181 (docs/gpu_2026_11_29/README.md) compared the bits of 32 and 64 columns at every point
they timed. Here: the rule (which calls it moves, and that it moves the block and grid alone), the
bits of both blocks under the interpreter, and a replayed call's key holding its knobs.
"""

from __future__ import annotations

import pytest
import torch

from generated.cuda import amax, amin, mean, nansum, vector_norm
from generated.cuda import sum as sum_mod
from tests.launch_spy import knobs, launches, schedule_knobs

MODULES = {"sum": sum_mod, "mean": mean, "nansum": nansum, "amax": amax, "amin": amin, "vector_norm": vector_norm}


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize(
    ("m", "n", "k", "isz", "block"),
    [
        (256, 4096, 64, 2, 64),  # 256 programs of 64 columns (run 181: sum bf16 48.0 -> 33.4 us)
        (16, 2048, 2048, 2, 64),
        (256, 4096, 64, 4, 32),  # f32: the spec's 32 (run 180 mixed)
        (128, 4096, 64, 2, 32),  # 128 programs at 64: a short grid, bound by latency
        (256, 8192, 64, 2, 32),  # two chunks (run 180: 1.7x slower at 64)
        (256, 4096, 32, 2, 32),  # K shorter than the wide block
    ],
)
def test_16_bit_rows_of_one_chunk_take_the_wide_block(name, m, n, k, isz, block):
    mod = MODULES[name]
    assert (mod.COLS_TILE_WIDE_ITEMSIZE, mod.COLS_TILE_WIDE_BLOCK, mod.COLS_TILE_WIDE_PROGRAMS) == (2, 64, 256)
    _, _, shape, got, programs, _, _, _ = mod._schedule(m, n, k, isz)
    assert shape == "cols" and got == block and programs >= m * -(-k // block)


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize(("m", "n", "k"), [(256, 4096, 64), (16, 2048, 2048)])
def test_the_rule_changes_the_block_and_grid_alone(name, m, n, k, monkeypatch):
    mod = MODULES[name]
    on = mod._schedule(m, n, k, 2)
    monkeypatch.setattr(mod, "COLS_TILE_WIDE_PROGRAMS", 1 << 62)
    off = mod._schedule(m, n, k, 2)
    assert (on[3], on[4]) == (64, off[4] // 2) and off[3] == 32
    assert on[:3] + on[5:] == off[:3] + off[5:]


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_the_wide_block_has_the_spec_blocks_bits(name, dtype, monkeypatch):
    """Rows of 1000 (one chunk, past COLS_STACK_N) on 96 columns: the wide block's second program of a
    batch row holds 32 columns and 32 masked ones. NaN, -inf and a zero row planted."""
    mod = MODULES[name]
    x = (torch.randn(3, 1000, 96, generator=torch.Generator().manual_seed(7)) * 3).to(dtype)
    x[0, 5, 3], x[1, 999, 70], x[2, :, 95] = float("nan"), float("-inf"), 0.0
    seen = launches(mod, monkeypatch)
    with knobs(mod, COLS_TILE_WIDE_PROGRAMS=1):
        wide = getattr(mod, name)(x, 1)
    spec = getattr(mod, name)(x, 1)
    assert [c["BLOCK"] for _, c in seen] == [64, 32]
    assert torch.equal(torch.nan_to_num(wide.float(), 7.0), torch.nan_to_num(spec.float(), 7.0))


@pytest.mark.parametrize("name", list(MODULES))
def test_the_replay_key_holds_the_rules_knobs(name):
    assert schedule_knobs(MODULES[name], "COLS_TILE_WIDE_") == {"COLS_TILE_WIDE_ITEMSIZE", "COLS_TILE_WIDE_BLOCK",
                                                                 "COLS_TILE_WIDE_PROGRAMS"}
