"""cuda's row kernel loads the other inputs of its outputs (a weight, a bias) a group of MAPG
tiles at a time, before the group's stores (ROW_MAP_ELEMS); on a latency-bound grid the first
group is loaded with the row, before the reductions (PREG), and groups fill a thread's registers
up to ROW_PRE_WORDS with the row's held tiles (runs 67-70 in docs/gpu_2026_11_26/README.md).

Before, each tile's weight load waited for the previous tile's store (a store may alias a later
load), a memory round trip a tile: rms_norm f32 1 x 8192 took 7.3 us on an H100 and 2.9 with the
loads grouped (docs/gpu_2026_11_25/README.md). Grouping is not order-shaping: the loads are of
values only multiplied or added element-wise into the outputs, in the same expression. What is
tested here: the group sizes the launchers print, that a replayed call's key holds the knobs, and
the bits of every group size, preloaded or not, against the chunked fused kernel under the
interpreter.
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


def _groups(mod, name: str, m: int, n: int, monkeypatch) -> tuple[str, int, int]:
    """The kernel, MAPG and PREG the launcher passes (the launch itself recorded, not run)."""
    seen = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, args, consts: seen.append((kernel, consts)))
    mod._PLANS.clear()
    getattr(mod, name)(*_args(name, m, n))
    mod._PLANS.clear()
    (kernel, consts), = seen
    return kernel.fn.__name__, consts["MAPG"], consts["PREG"]


# (m, n) -> per module (MAPG, PREG). A short grid holds 4 warps at rows of 4096-8192 (two elements of
# a tile a thread) and preloads groups filling ROW_PRE_WORDS 192 words with the row's held tiles
# (add_rms_norm holds two rows, x and r); rows of 8192 run across their two chunks (ROW_ACROSS_EVEN_MIN):
# a sweep of 16 tiles, all of them one group at one row; 300 programs is a long grid: groups of ROW_MAP_ELEMS, none
# preloaded; 150 programs of two rows of 1024 preload; 128 rows of 32000 run across in 16 warps,
# where a thread has 128 registers: its words shrink to 96 (layer_norm spilled at 192: 10.2 ->
# 81.6 us, run 69), and 129 is past ROW_PRE_PROGRAMS for rows that long.
CASES = {
    (1, 4096): {"rms_norm": (16, 16), "layer_norm": (16, 16), "add_rms_norm": (16, 16)},
    (1, 8192): {"rms_norm": (16, 16), "layer_norm": (16, 16), "add_rms_norm": (16, 16)},
    (300, 8192): {"rms_norm": (8, 0), "layer_norm": (4, 0), "add_rms_norm": (8, 0)},
    (300, 1024): {"rms_norm": (4, 4), "layer_norm": (4, 4), "add_rms_norm": (4, 4)},
    (128, 32000): {"rms_norm": (8, 8), "layer_norm": (4, 4), "add_rms_norm": (8, 8)},
    (129, 32000): {"rms_norm": (8, 0), "layer_norm": (4, 0), "add_rms_norm": (8, 0)},
}


@pytest.mark.parametrize("name", list(WITH_EXTRA))
@pytest.mark.parametrize(("m", "n"), list(CASES))
def test_the_groups_the_launcher_passes(name, m, n, monkeypatch):
    want = CASES[(m, n)]["rms_norm" if name == "rms_norm_rstd" else name]
    kernel, mapg, preg = _groups(WITH_EXTRA[name], name, m, n, monkeypatch)
    assert kernel == ("_k_rows_across" if n in (8192, 32000) else "_k_rows_row")
    assert (mapg, preg) == want


def test_no_group_is_preloaded_where_the_rule_is_off(monkeypatch):
    """ROW_PRE_PROGRAMS -1 (the empirical check's "late" form): groups of ROW_MAP_ELEMS, loaded
    after the reductions."""
    monkeypatch.setattr(layer_norm, "ROW_PRE_PROGRAMS", -1)
    monkeypatch.setattr(layer_norm, "ROW_FEW_PROGRAMS", -1)
    assert _groups(layer_norm, "layer_norm", 1, 8192, monkeypatch)[1:] == (4, 0)


def test_a_kernel_without_other_inputs_has_no_groups():
    """softmax's outputs read only the held row: nothing to load, no knob."""
    assert not hasattr(softmax, "ROW_MAP_ELEMS")
    assert "MAPG" not in inspect.signature(softmax._k_rows_row.fn).parameters


@pytest.mark.parametrize("name", list(WITH_EXTRA))
def test_the_replay_key_holds_the_group_knobs(name):
    """A knob set between calls (a sweep) must record anew, not replay the old launches."""
    mod = WITH_EXTRA[name]
    for knob in ("ROW_MAP_ELEMS", "ROW_PRE_PROGRAMS", "ROW_PRE_WORDS"):
        assert knob in inspect.getsource(mod._launch)
        assert knob in mod._KNOB_NAMES  # what a replay's key holds (replay.py.j2 `_knobs`)


@pytest.mark.parametrize(("name", "n"), [("rms_norm", 700), ("layer_norm", 1100), ("add_rms_norm", 700)])
def test_every_group_size_gives_the_fused_kernels_bits(name, n, monkeypatch):
    """Groups of 1 tile, 2, and all of them (ROW_MAP_ELEMS 1, 2 per tile, plenty), loaded after the
    reductions and the first of them before (ROW_PRE_WORDS 0: preloaded groups of ROW_MAP_ELEMS),
    and the launcher's own preload, against the chunked fused kernel (ROW_MAX_TILES 0), bit for
    bit, f32 and bf16."""
    mod = WITH_EXTRA[name]
    extra = 2 if name == "layer_norm" else 1
    forms = [{"ROW_MAP_ELEMS": e, "ROW_PRE_PROGRAMS": -1} for e in (1, 2 * extra, 1 << 20)]
    forms += [{"ROW_MAP_ELEMS": e, "ROW_PRE_WORDS": 0} for e in (1, 2 * extra, 1 << 20)]
    forms += [{}]
    for dtype in (torch.float32, torch.bfloat16):
        args = _args(name, 2, n, dtype, seed=n)
        monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
        want = getattr(mod, name)(*args)
        monkeypatch.undo()
        for form in forms:
            for k, v in form.items():
                monkeypatch.setattr(mod, k, v)
            got = getattr(mod, name)(*args)
            for a, c in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,),
                            strict=True):
                assert torch.equal(a, c), (name, dtype, form)
            monkeypatch.undo()
