"""cuda's row kernel loads the other inputs of its outputs (a weight, a bias) a group of MAPG
tiles at a time, before the group's stores (ROW_MAP_ELEMS).

Before, each tile's weight load waited for the previous tile's store (a store may alias a later
load), a memory round trip a tile: rms_norm f32 1 x 8192 took 7.3 us on an H100 and 2.9 with the
loads grouped (docs/gpu_2026_11_25/README.md). Grouping is not order-shaping: the loads are of
values only multiplied or added element-wise into the outputs, in the same expression. What is
tested here: the group size the launchers print, that a replayed call's key holds the knob, and
the bits of every group size against the chunked fused kernel under the interpreter.
"""

from __future__ import annotations

import inspect

import pytest
import torch

from generated.cuda import add_rms_norm, layer_norm, rms_norm, rms_norm_rstd, softmax

WITH_EXTRA = {"rms_norm": rms_norm, "layer_norm": layer_norm, "add_rms_norm": add_rms_norm,
              "rms_norm_rstd": rms_norm_rstd}


def _args(name: str, m: int, n: int, dtype=torch.float32, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(m, n, generator=g).to(dtype)
    w, b = (torch.randn(n, generator=g).to(dtype) for _ in range(2))
    return {"rms_norm": (x, w), "rms_norm_rstd": (x, w), "layer_norm": (x, w, b),
            "add_rms_norm": (x, torch.randn(m, n, generator=g).to(dtype), w)}[name]


def _mapg(mod, name: str, m: int, n: int, monkeypatch) -> int:
    """The MAPG the launcher passes to the row kernel (the launch itself recorded, not run)."""
    seen = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, args, consts: seen.append((kernel, consts)))
    mod._PLANS.clear()
    getattr(mod, name)(*_args(name, m, n))
    mod._PLANS.clear()
    (kernel, consts), = seen
    assert kernel is mod._k_rows_row
    return consts["MAPG"]


@pytest.mark.parametrize("name", list(WITH_EXTRA))
@pytest.mark.parametrize(
    ("m", "n", "per_tile"),
    [
        (1, 4096, 1),  # 8 warps on a 256-lane tile: one element of each a thread
        (1, 8192, 1),
        (300, 8192, 4),  # a long grid: 2 warps, four elements a thread a tile
        (300, 1024, 4),  # two rows a program, 4 warps
    ],
)
def test_the_group_holds_at_most_row_map_elems_a_thread(name, m, n, per_tile, monkeypatch):
    mod = WITH_EXTRA[name]
    extra = 2 if name == "layer_norm" else 1  # the inputs only the outputs read
    tiles = -(-n // mod.LANES)
    assert _mapg(mod, name, m, n, monkeypatch) == max(1, min(tiles, mod.ROW_MAP_ELEMS // (extra * per_tile)))


def test_a_kernel_without_other_inputs_has_no_groups():
    """softmax's outputs read only the held row: nothing to load, no knob."""
    assert not hasattr(softmax, "ROW_MAP_ELEMS")
    assert "MAPG" not in inspect.signature(softmax._k_rows_row.fn).parameters


@pytest.mark.parametrize("name", list(WITH_EXTRA))
def test_the_replay_key_holds_row_map_elems(name):
    """A knob set between calls (a sweep) must record anew, not replay the old launches."""
    mod = WITH_EXTRA[name]
    assert "ROW_MAP_ELEMS" in inspect.getsource(mod._launch)
    assert "ROW_MAP_ELEMS" in inspect.getsource(getattr(mod, name))


@pytest.mark.parametrize(("name", "n"), [("rms_norm", 700), ("layer_norm", 1100), ("add_rms_norm", 700)])
def test_every_group_size_gives_the_fused_kernels_bits(name, n, monkeypatch):
    """Groups of 1 tile, 2, and all of them (ROW_MAP_ELEMS 1, 2 per tile, plenty), against the
    chunked fused kernel (ROW_MAX_TILES 0), bit for bit, f32 and bf16."""
    mod = WITH_EXTRA[name]
    extra = 2 if name == "layer_norm" else 1
    for dtype in (torch.float32, torch.bfloat16):
        args = _args(name, 2, n, dtype, seed=n)
        monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
        want = getattr(mod, name)(*args)
        monkeypatch.undo()
        for elems in (1, 2 * extra, 1 << 20):
            monkeypatch.setattr(mod, "ROW_MAP_ELEMS", elems)
            got = getattr(mod, name)(*args)
            for a, c in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,),
                            strict=True):
                assert torch.equal(a, c), (name, dtype, elems)
            monkeypatch.undo()
