"""cuda's choice between the fused and the split path (redgen/plan.py, SPLIT_BELOW_ONCE/_REREAD).

The choice never changes the order (the certificate says why; test_cuda_kernels and the
empirical check compare the paths bit for bit). What is tested here is the rule the launchers
print, at the H100 points it was measured at (docs/gpu_2026_11_23/split.md), and that the
empirical check's knob values still force each path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generated.cuda import argmax, log_softmax, logsumexp, rms_norm, softmax
from generated.cuda import sum as sum_mod
from redgen.pipeline import plan_spec
from redgen.plan import ROW_ONCE_MAX, ROW_ONCE_PAIR_ROWS, SPLIT_BELOW_ONCE, SPLIT_BELOW_REREAD
from redgen.verify.proof import prove

REPO = Path(__file__).resolve().parent.parent
ONCE = {"sum": sum_mod, "argmax": argmax, "logsumexp": logsumexp}
REREAD = {"softmax": softmax, "log_softmax": log_softmax, "rms_norm": rms_norm}


def _split(mod, m: int, n: int, k: int = 1) -> bool:
    return mod._schedule(m, n, k, 4)[6]


@pytest.mark.parametrize("name", [*ONCE, *REREAD])
def test_plan_picks_the_constant_by_rereads(name):
    """A spec with outputs over the reduce axis (or a second stage) reads its input again."""
    plan = plan_spec(REPO / "specs" / f"{name}.red", "cuda")
    want = SPLIT_BELOW_REREAD if name in REREAD else SPLIT_BELOW_ONCE
    assert plan.split_below == want
    assert (ONCE | REREAD)[name].SPLIT_BELOW == want
    note = next(s for s in prove(plan).not_order_shaping if s.startswith("fused vs split"))
    assert ("wherever a row has several chunks" in note) == (name in ONCE)
    assert (f"below {SPLIT_BELOW_REREAD} batch programs per chunk" in note) == (name in REREAD)


@pytest.mark.parametrize("name", list(ONCE))
@pytest.mark.parametrize(("m", "n"), [(64, 8192), (200, 8192), (4096, 32000), (512, 151936), (1, 4097)])
def test_read_once_splits_rows_of_several_chunks(name, m, n):
    # sum holds rows of ROW_ONCE_MIN to ROW_ONCE_MAX in its row kernel: one launch, no split
    # (tests/test_row_once.py); argmax too on grids of at most ROW_ONCE_PAIR_ROWS rows of f32
    # (isz 4 here); logsumexp was not timed held.
    held = n <= ROW_ONCE_MAX and (name == "sum" or (name == "argmax" and m <= ROW_ONCE_PAIR_ROWS))
    assert _split(ONCE[name], m, n) is not held
    assert (ONCE[name]._schedule(m, n, 1, 4)[2] == "row") is held


@pytest.mark.parametrize("name", list(ONCE))
def test_read_once_keeps_one_chunk_and_huge_grids_fused(name):
    mod = ONCE[name]
    assert not _split(mod, 4096, 4096)  # one chunk: nothing to split
    assert not _split(mod, 70000, 20000)  # more batch programs than the split grid's axis 1 holds
    assert _split(mod, 65535, 20000)


@pytest.mark.parametrize(
    ("m", "n", "split"),
    [
        (64, 8192, False),  # two chunks: fused 5.5 us against 6.3 on the H100
        (200, 8192, False),
        (512, 16384, False),
        (128, 16384, True),  # 10.1 against 10.9 (cols_rows.md)
        (128, 32000, True),  # 12.8 against 18.6
        (256, 32000, True),  # 41.1 against 50.2 (cols_rows.md)
        (384, 32000, False),  # split would win (bf16 33.5 against 40.4): one of the rule's two misses
        (512, 32000, False),
        (1024, 32000, False),  # 143 against 152
        (512, 65536, True),  # 91 against 108
        (1024, 65536, False),
        (300, 151936, True),
        (1024, 151936, True),
        (2048, 151936, False),  # bf16 743 against 806 split (cols_rows.md)
        (4096, 151936, False),
    ],
)
def test_rereads_split_only_short_grids_of_long_rows(m, n, split):
    for mod in (softmax, log_softmax):
        assert _split(mod, m, n) == split, (mod.__name__, m, n)


def test_the_row_kernel_never_splits():
    assert softmax._schedule(8, 4096, 1, 4)[2] == "row"
    assert not _split(softmax, 8, 4096)


@pytest.mark.parametrize("mod", [sum_mod, softmax])
def test_the_knob_still_forces_each_path(mod, monkeypatch):
    """The empirical check forces the paths with SPLIT_BELOW (targets.CUDA.empirical_paths), the
    row kernel off (empirical_off)."""
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 0)
    assert not _split(mod, 1, 151936)
    monkeypatch.setattr(mod, "SPLIT_BELOW", 1 << 62)
    assert _split(mod, 4096, 4097)  # two chunks, the largest batch measured
    assert _split(mod, 65535, 8192, 1)
