"""cuda's rows walks of 16-bit rows of several chunks take ROWS_NARROW_WARPS warps (redgen/plan.py).

num_warps never shapes an order (the lane tree is explicit; the certificate's kernel-shapes note).
H200 run 177 (docs/gpu_2026_11_29/README.md) compared the bits of 2 and 4 warps at every point it
timed. What is tested here is the rule: which calls it moves (16-bit elements, several chunks, at
least ROWS_NARROW_MIN chunks in all), that it moves the warps alone, and that a replayed call's key
holds its knobs. On the split path those walks take ROWS_NARROW_SPLIT_BLOCK rows a program, 2 where a
spec tunes it (argmax, argmin: H200 run 231 compared their bits with torch's at every point it timed).
"""

from __future__ import annotations

import pytest
import torch

from generated.cuda import argmax, cross_entropy, logsumexp, rms_norm, softmax, var
from generated.cuda import sum as sum_mod
from tests.launch_spy import schedule_knobs

MODULES = {"argmax": argmax, "cross_entropy": cross_entropy, "logsumexp": logsumexp, "softmax": softmax,
           "sum": sum_mod, "var": var, "rms_norm": rms_norm}


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize(
    ("m", "n", "isz", "warps"),
    [
        (4096, 40000, 2, 2),  # bf16, 10 chunks a row: 40960 in all
        (1024, 151936, 2, 2),
        (103, 40000, 2, 2),  # 1030 chunks: the first grid past ROWS_NARROW_MIN (1024)
        (102, 40000, 2, 4),  # 1020: a short grid is bound by latency (softmax bf16 4 x 151936 lost 21%)
        (1, 151936, 2, 4),
        (4096, 40000, 4, 4),  # f32 gained nothing (softmax f32 1024 x 151936 lost 6%)
        (4096, 40000, 1, 2),  # any element of at most ROWS_NARROW_ITEMSIZE bytes
    ],
)
def test_the_rows_walks_of_16_bit_rows_take_fewer_warps(name, m, n, isz, warps):
    mod = MODULES[name]
    assert (mod.ROWS_NARROW_ITEMSIZE, mod.ROWS_NARROW_WARPS, mod.ROWS_NARROW_MIN) == (2, 2, 1024)
    _, chunks, shape, _, _, got, _, _ = mod._schedule(m, n, 1, isz)
    assert shape == "rows" and chunks > 1 and got == warps


@pytest.mark.parametrize("name", list(MODULES))
def test_one_chunk_and_the_cols_kernels_keep_the_specs_warps(name):
    """A row of one chunk (argmax's rows of 4096) and the cols kernels are not the rule's."""
    mod = MODULES[name]
    if name in ("argmax", "logsumexp", "cross_entropy", "var"):
        _, chunks, shape, _, _, warps, _, _ = mod._schedule(8192, 4096, 1, 2)
        assert (chunks, shape, warps) == (1, "rows", 4)
    if name != "rms_norm":  # rms_norm normalizes the last dim alone: no cols kernels
        assert mod._schedule(4096, 40000, 8, 2)[2] == "cols" and mod._schedule(4096, 40000, 8, 2)[5] == 4


@pytest.mark.parametrize("name", list(MODULES))
def test_the_rule_changes_the_warps_alone(name, monkeypatch):
    """Switched off (ROWS_NARROW_WARPS 4), the same chunks, shape, block, programs, path and index width."""
    mod = MODULES[name]
    on = mod._schedule(4096, 40000, 1, 2)
    monkeypatch.setattr(mod, "ROWS_NARROW_WARPS", 4)
    off = mod._schedule(4096, 40000, 1, 2)
    assert on[5] == 2 and off[5] == 4 and on[:5] + on[6:] == off[:5] + off[6:]


@pytest.mark.parametrize("name", list(MODULES))
def test_the_replay_key_holds_the_rules_knobs(name):
    assert schedule_knobs(MODULES[name], "ROWS_NARROW_") == {"ROWS_NARROW_ITEMSIZE", "ROWS_NARROW_WARPS",
                                                              "ROWS_NARROW_MIN", "ROWS_NARROW_SPLIT_BLOCK"}


@pytest.mark.parametrize(
    ("m", "n", "isz", "block"),
    [
        (4096, 40000, 2, 2),  # bf16 on the split path: two rows a program
        (103, 40000, 2, 2),  # the first grid past ROWS_NARROW_MIN chunks; its last program holds one row
        (102, 40000, 2, 1),  # a short grid: not the rule's
        (8, 32000, 2, 1),
        (4096, 40000, 4, 1),  # f32 lost with it (H200 run 231)
    ],
)
def test_argmax_and_argmins_split_walks_of_16_bit_rows_take_two_rows_a_program(m, n, isz, block):
    """specs/argmax.red and argmin.red tune ROWS_NARROW_SPLIT_BLOCK to 2; the other modules keep 1."""
    from generated.cuda import argmin

    for mod in (argmax, argmin):
        assert mod.ROWS_NARROW_SPLIT_BLOCK == 2
        _, chunks, shape, got, programs, _, split, _ = mod._schedule(m, n, 1, isz)
        assert (shape, split, got, programs) == ("rows", True, block, -(-m // block))
    for name, mod in MODULES.items():
        if name != "argmax":
            assert mod.ROWS_NARROW_SPLIT_BLOCK == 1


def test_the_split_block_changes_block_and_programs_alone(monkeypatch):
    on = argmax._schedule(4096, 40000, 1, 2)
    monkeypatch.setattr(argmax, "ROWS_NARROW_SPLIT_BLOCK", 1)
    off = argmax._schedule(4096, 40000, 1, 2)
    assert (on[3], on[4], off[3], off[4]) == (2, 2048, 1, 4096) and on[:3] + on[5:] == off[:3] + off[5:]


@pytest.mark.parametrize("m", [3, 5])
def test_two_rows_a_program_give_torchs_indices(m, monkeypatch):
    """Under the interpreter, the split path at two rows a program (a short grid forced onto it; an odd
    row count leaves the last program one row) against torch.argmax, with a NaN and a tie."""
    monkeypatch.setattr(argmax, "ROWS_NARROW_MIN", 1)
    monkeypatch.setattr(argmax, "ROW_MAX_TILES", 0)  # rows this short on a grid this short are held
    x = torch.randn(m, 9000, generator=torch.Generator().manual_seed(m)).bfloat16()
    x[1, 5000] = float("nan")
    x[m - 1, 7] = x[m - 1, 8000] = 100.0
    assert argmax._schedule(m, 9000, 1, 2)[3] == 2
    assert torch.equal(argmax.argmax(x, dim=1), torch.argmax(x, dim=1))
