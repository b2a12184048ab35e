"""cuda's row kernel takes more warps where its grid is short (ROW_FEW_PROGRAMS, ROW_FEW_MIN_ELEMS,
ROW_FEW_WARPS).

num_warps never shapes an order (the certificate's kernel-shapes note: the lane tree is
explicit; the H100 run in docs/gpu_2026_11_23/cols_rows.md compared the bits of 2, 4 and 8
warps at 60 points). What is tested here is the rule the launchers print, at the points it
was measured at, that a replayed call's key holds every knob the schedule reads, and that
the rule moves nothing of the schedule but the warps.
"""

from __future__ import annotations

import inspect
import re

import pytest
import torch

from generated.cuda import layer_norm, rms_norm, softmax, softmax_held

ROW_MODULES = {"rms_norm": rms_norm, "layer_norm": layer_norm, "softmax": softmax}


def _warps(mod, m: int, n: int) -> int:
    _, _, shape, _, _, warps, split, _ = mod._schedule(m, n, 1, 4)
    assert shape == "row" and not split
    return warps


@pytest.mark.parametrize("name", list(ROW_MODULES))
@pytest.mark.parametrize(
    ("m", "n", "warps"),
    [
        # (warps at 256 lanes: the norms; at 512: softmax, docs/gpu_2026_11_26/README.md run 10)
        (1, 4096, (4, 4)),  # ROW_FEW_WARPS: 4 beat 8 at 1-256 rows of 4096 and 8192 (runs 67-68)
        (256, 4096, (4, 4)),  # the last short grid
        (257, 4096, (2, 4)),  # then a warp per ROW_WARP_LANES lanes (512 x 4096 bf16 softmax lost 15%)
        (4096, 4096, (2, 4)),
        (1, 8192, (4, 4)),
        (1, 2048, (2, 4)),  # rows of 2048 keep their warps (softmax lost 7-13% with 4 at 256 lanes)
        (1, 1024, (4, 8)),  # two rows a program: the warps it had
        (1, 256, (16, 16)),  # eight rows a program (at 512 lanes: four, a tile of one row masked half)
    ],
)
def test_short_grids_take_more_warps(name, m, n, warps):
    mod = ROW_MODULES[name]
    if name == "softmax" and n > 4096:
        mod = softmax_held  # softmax's rows of more than 4096 are the held spec's (`short`)
    assert _warps(mod, m, n) == warps[{256: 0, 512: 1}[mod.LANES]]


def test_a_warp_holds_at_least_one_lane_of_each_tile(monkeypatch):
    """More warps than a tile has lanes for would hold copies: ROW_FEW_WARPS 16 gives a tile of 256
    lanes its 8."""
    monkeypatch.setattr(rms_norm, "ROW_FEW_WARPS", 16)
    assert _warps(rms_norm, 1, 8192) == 8
    assert _warps(rms_norm, 4096, 8192) == 2


@pytest.mark.parametrize("name", list(ROW_MODULES))
def test_the_replay_key_holds_every_knob_the_schedule_reads(name):
    """A knob set between calls (a sweep) must record anew, not replay the old launches."""
    mod = ROW_MODULES[name]
    read = set(re.findall(r"\b(ROW_[A-Z_]+|SPLIT_BELOW|UNROLL|COLS_UNROLL)\b", inspect.getsource(mod._schedule)))
    assert read and read <= mod._KNOB_NAMES, sorted(read - mod._KNOB_NAMES)  # the replay key's knobs


# softmax's own row kernel (512 lanes) already runs 4 warps at its 4096 elements: the rule acts
# on the held spec its longer rows go to.
RULE_MODULES = {"rms_norm": rms_norm, "layer_norm": layer_norm, "softmax_held": softmax_held}


@pytest.mark.parametrize("name", list(RULE_MODULES))
@pytest.mark.parametrize(("m", "n"), [(1, 4096), (3, 4096), (256, 4096)])
def test_the_rule_changes_the_warps_alone(name, m, n, monkeypatch):
    """Where the rule acts, switching it off (ROW_FEW_PROGRAMS 0) gives back the warps of a
    long grid and nothing else of the schedule moves: the same shape, block, programs, chunks
    and path. The bits of the two launches are then the GPU run's to compare (cols_rows.md);
    under the interpreter, where num_warps is not simulated, they are compared too."""
    mod = RULE_MODULES[name]
    on = mod._schedule(m, n, 1, 4)
    monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", 0)
    off = mod._schedule(m, n, 1, 4)
    assert on[5] > off[5]
    assert on[:5] + on[6:] == off[:5] + off[6:]
    if m > 3:
        return  # the schedule alone: 256 rows under the interpreter cost minutes
    g = torch.Generator().manual_seed(3)
    x = torch.randn(m, n, generator=g)
    w, b = torch.randn(n, generator=g), torch.randn(n, generator=g)
    args = {"softmax_held": (x,), "rms_norm": (x, w), "layer_norm": (x, w, b)}[name]
    want = getattr(mod, name)(*args)
    monkeypatch.undo()
    got = getattr(mod, name)(*args)
    for a, c in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,), strict=True):
        assert torch.equal(a, c)
