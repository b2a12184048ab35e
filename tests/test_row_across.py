"""cuda's row kernel across its chunks (_k_rows_across; redgen/plan.py Plan.row_across).

A held row of NCH chunks is laid out as NP stacked rows (the power of two holding NCH): tile u
holds lanes u * LANES + j of every chunk. A chunk's lane j still combines its elements in
increasing order, the chunks' lane trees run as the row kernel's stacked tree, and their totals
combine left to right, so the bits must equal the chunked walks' (ROW_MAX_TILES = 0, fused or
split) and the row kernel's own form, for every dtype, at every number of chunks from two to
eight, padded (NCH < NP) or not.
"""

from __future__ import annotations

import importlib

import pytest
import torch

from generated.cuda import layer_norm, log_softmax_held, rms_norm, rms_norm_rstd, softmax_held
from redgen.errors import EmpiricalMismatch
from redgen.pipeline import build_spec
from redgen.verify.empirical import run_empirical
from tests.launch_spy import launches
from tests.test_row_long import MODULES, _bits, _call, _walked_bits_equal


def _across_form(mod, monkeypatch):
    monkeypatch.setattr(mod, "ROW_ACROSS_MIN", 0)
    monkeypatch.setattr(mod, "ROW_ACROSS_PROGRAMS", 1 << 62)


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("n", [9000, 20483, 32768])  # 3 of 4, 5 of 8 and 8 of 8 stacked rows
def test_rows_across_chunks_have_the_chunked_walks_bits(name, dtype, n, monkeypatch):
    """Across its chunks (the empirical check's "across" form: any row of 2 to 8 chunks), with NP
    rows a tile and ROW_ACROSS_LANES lanes of a tile a thread."""
    mod = MODULES[name]
    x = (torch.randn(3, n, generator=torch.Generator().manual_seed(n)) * 3).to(dtype)
    x[1, 7], x[2, n - 1] = float("-inf"), float("nan")
    _across_form(mod, monkeypatch)
    seen = launches(mod, monkeypatch)
    across = _call(name, mod, x)
    (kernel, consts), = seen
    chunks = -(-n // 4096)
    np = 1 << (chunks - 1).bit_length()
    assert kernel == "_k_rows_across" and consts["NCH"] == chunks and consts["NP"] == np
    # a grid of at most ROW_ACROSS_PROGRAMS programs (all of them here): at most ROW_ACROSS_FEW_WARPS
    assert consts["num_warps"] == min(np * mod.LANES // (32 * mod.ROW_ACROSS_LANES), mod.ROW_ACROSS_FEW_WARPS)
    for split_below in (0, 1 << 62):  # the fused walk, then the split path
        monkeypatch.setattr(mod, "SPLIT_BELOW", split_below)
        assert _walked_bits_equal(name, mod, x, across, monkeypatch), split_below


@pytest.mark.parametrize("name", ["softmax_held", "layer_norm"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_packed_rows_across_chunks_have_the_row_kernels_bits(name, dtype, monkeypatch):
    """PACK across chunks (ROW_FEW_PROGRAMS 0 packs a short grid): each stacked row's words
    start at its chunk. The same bits as the row kernel's own form, NaN and -inf planted."""
    mod = MODULES[name]
    x = (torch.randn(2, 20482, generator=torch.Generator().manual_seed(4)) * 3).to(dtype)
    x[0, 4096], x[1, 8191] = float("nan"), float("-inf")
    monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", 0)
    _across_form(mod, monkeypatch)
    seen = launches(mod, monkeypatch)
    across = _call(name, mod, x)
    monkeypatch.setattr(mod, "ROW_ACROSS_MIN", 1 << 62)
    monkeypatch.setattr(mod, "ROW_ACROSS_EVEN_MIN", 1 << 62)
    row = _call(name, mod, x)
    assert [(k, c["PACK"]) for k, c in seen] == [("_k_rows_across", True), ("_k_rows_row", True)]
    assert all(torch.equal(_bits(a), _bits(b)) for a, b in zip(across, row, strict=True))


def test_a_reduced_output_is_stored_once_a_row(monkeypatch):
    """rms_norm_rstd's per-row output across chunks: each row's value, from its first chunk's
    stacked row (the others hold the same and store nothing); the row kernel's bits."""
    x = torch.randn(3, 13000, generator=torch.Generator().manual_seed(2))
    w = torch.randn(13000, generator=torch.Generator().manual_seed(3))
    seen = launches(rms_norm_rstd, monkeypatch)
    y, rstd = rms_norm_rstd.rms_norm_rstd(x, w)
    monkeypatch.setattr(rms_norm_rstd, "ROW_ACROSS_MIN", 1 << 62)
    monkeypatch.setattr(rms_norm_rstd, "ROW_ACROSS_EVEN_MIN", 1 << 62)
    y_row, rstd_row = rms_norm_rstd.rms_norm_rstd(x, w)
    assert [k for k, _ in seen] == ["_k_rows_across", "_k_rows_row"]
    assert torch.equal(y, y_row) and torch.equal(rstd, rstd_row)
    ref = torch.rsqrt(x.double().pow(2).mean(-1, keepdim=True) + 1e-6)
    assert rstd.shape == (3, 1) and torch.allclose(rstd.double(), ref, rtol=1e-5)


def test_long_grids_go_across_where_little_pads_or_the_own_form_would_spill(monkeypatch):
    """Past ROW_ACROSS_PROGRAMS programs (set to 1 here: a grid of 2 is long, and packed) a row
    past ROW_ACROSS_MIN goes across where its NP chunks pad less than ROW_ACROSS_PAD (12288,
    16384, 32000) or where the row kernel's own form would hold more than ROW_ACROSS_WORDS words a
    thread (f32 24576: 192 in 4 warps) or, packed, ROW_ACROSS_PACK_WORDS (bf16 24576: 96, past
    rms_norm's tuned 80); rows of 20000 (5 chunks of 8; 156 and 78 words) do not."""
    monkeypatch.setattr(rms_norm, "ROW_ACROSS_PROGRAMS", 1)
    monkeypatch.setattr(rms_norm, "ROW_FEW_PROGRAMS", 1)
    seen = launches(rms_norm, monkeypatch)
    for dtype in (torch.float32, torch.bfloat16):
        for n in (12288, 16384, 20000, 24576, 32000):
            rms_norm.rms_norm(torch.ones(2, n, dtype=dtype), torch.ones(n, dtype=dtype))
    across = [k == "_k_rows_across" for k, _ in seen]
    assert across == [True, True, False, True, True] * 2
    assert [c["PACK"] for _, c in seen][5:] == [True] * 5
    # a long grid: ROW_ACROSS_LANES lanes of a tile a thread, 16 warps for eight chunks
    assert [c["num_warps"] for _, c in seen][4] == 8 * rms_norm.LANES // (32 * rms_norm.ROW_ACROSS_LANES) == 16
    # packed rows of at most ROW_ACROSS_PACK_CHUNKS chunks: ROW_ACROSS_PACK_LANES lanes a thread, one
    # 16-byte load of four words (run 177); f32 rows and packed rows of eight chunks keep theirs
    assert (rms_norm.ROW_ACROSS_PACK_LANES, rms_norm.ROW_ACROSS_PACK_CHUNKS) == (8, 4)
    assert [c["num_warps"] for _, c in seen] == [8, 8, 4, 16, 16] + [4, 4, 4, 16, 16]
    assert (rms_norm.ROW_ACROSS_MIN, rms_norm.ROW_ACROSS_PAD, rms_norm.ROW_ACROSS_WORDS, rms_norm.ROW_LONG_WARPS) == (
        10240, 6144, 160, 4)


# The modules whose spec tunes ROW_ACROSS_PACK_WORDS to 80 (H200 runs 218-220, docs/gpu_2026_12_02:
# across faster at packed rows of 22528-26000), and two that keep every module's 160 (their own
# form was faster there: softmax_held run 218, var_held run 220).
PACK_80 = ("log_softmax_held", "rms_norm", "rms_norm_rstd", "layer_norm")
PACK_160 = ("softmax_held", "var_held")


@pytest.mark.parametrize("name", PACK_80 + PACK_160)
def test_packed_rows_past_80_words_go_across_where_the_spec_tunes_it(name, monkeypatch):
    """On a long grid, packed rows of 22528 and 24576 (88 and 96 words a thread in the own form's 4
    warps) go across in the modules tuned to 80; rows of 20000 (78) keep the own form in every
    module, as f32 rows of 20000 (156 words, ROW_ACROSS_WORDS) do."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    assert (mod.ROW_ACROSS_PACK_WORDS, mod.ROW_ACROSS_WORDS) == (80 if name in PACK_80 else 160, 160)
    monkeypatch.setattr(mod, "ROW_ACROSS_PROGRAMS", 1)
    monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", 1)  # a grid of 2 is long, and packed
    seen = launches(mod, monkeypatch)
    for dtype, n in ((torch.bfloat16, 20000), (torch.bfloat16, 22528), (torch.bfloat16, 24576), (torch.float32, 20000)):
        _call(name, mod, torch.ones(2, n, dtype=dtype))
    across = name in PACK_80
    assert [(k == "_k_rows_across", c["PACK"]) for k, c in seen] == [
        (False, True), (across, True), (across, True), (False, False)]


@pytest.mark.parametrize("name", ["layer_norm", "log_softmax_held", "rms_norm"])
def test_six_packed_chunks_across_take_eight_lanes_where_the_spec_tunes_it(name, monkeypatch):
    """layer_norm and log_softmax_held tune ROW_ACROSS_PACK_CHUNKS to 6 (H200 run 223: bf16 16384 x
    24576 layer_norm 502.4 -> 465.9 us; seven chunks and rms_norm lost): their packed rows of six
    chunks across take ROW_ACROSS_PACK_LANES (8) lanes a thread in 8 warps; seven chunks, and rms_norm's
    six, take ROW_ACROSS_LANES (4) in 16."""
    mod = importlib.import_module(f"generated.cuda.{name}")
    tuned = name != "rms_norm"
    assert (mod.ROW_ACROSS_PACK_CHUNKS, mod.ROW_ACROSS_PACK_LANES, mod.ROW_ACROSS_LANES) == (6 if tuned else 4, 8, 4)
    monkeypatch.setattr(mod, "ROW_ACROSS_PROGRAMS", 1)
    monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", 1)  # a grid of 2 is long, and packed
    seen = launches(mod, monkeypatch)
    for n in (22528, 24576, 26000):  # 6, 6 and 7 chunks
        _call(name, mod, torch.ones(2, n, dtype=torch.bfloat16))
    assert [(k, c["PACK"], c["num_warps"]) for k, c in seen] == [
        ("_k_rows_across", True, 8 if tuned else 16)] * 2 + [("_k_rows_across", True, 16)]


def test_short_grids_go_across_at_every_length_past_the_bound(monkeypatch):
    """On a grid of at most ROW_ACROSS_PROGRAMS programs, in at most ROW_ACROSS_FEW_WARPS warps (8:
    eight chunks in 8 warps beat 16 there, run 67: softmax bf16 1 x 32000 4.75 -> 4.50 us)."""
    seen = launches(softmax_held, monkeypatch)
    for n in (10240, 10241, 20000):
        softmax_held.softmax_held(torch.ones(2, n, dtype=torch.bfloat16), -1)
    assert [(k, c["NP"], c["num_warps"]) for k, c in seen] == [
        ("_k_rows_row", 4, softmax_held.ROW_LONG_WARPS), ("_k_rows_across", 4, 8), ("_k_rows_across", 8, 8)]


def test_softmax_hands_rows_up_to_32768_to_the_held_order():
    from generated.cuda import log_softmax, softmax

    assert softmax.SHORT_MAX == log_softmax.SHORT_MAX == 32768
    x = torch.randn(2, 32000, generator=torch.Generator().manual_seed(1))
    assert torch.equal(softmax.softmax(x, -1), softmax_held.softmax_held(x, -1))
    assert torch.equal(log_softmax.log_softmax(x, -1), log_softmax_held.log_softmax_held(x, -1))


def test_the_empirical_check_catches_an_across_kernel_that_rounds_otherwise(tmp_path):
    """The certificate covers the form across chunks: the empirical check runs it ("across"
    form) against the chunked walks, so a planted rounding there is a mismatch."""
    spec = tmp_path / "small_norm.red"
    spec.write_text("op small_norm\nin x[M, N] : f32\nout y[M, N] : like x\nacc f32\nreduce N: ss = sum(x * x)\n"
                    "y = x * rsqrt(ss / N + 0.000001)\ntile N = 16\nsplit N fixed_size 64\n")
    built = build_spec(spec, "cuda", empirical=False)
    held = "in_0_v = _widen(in_0_t[u], PACK, BLOCK * NP, LANES, in_0_ptr)"  # its reduction, then its sweep
    assert built.plan.row_across and built.source.count(held) == 2
    assert run_empirical(built.plan, built.source)["status"] == "passed"
    with pytest.raises(EmpiricalMismatch, match="differ"):
        run_empirical(built.plan, built.source.replace(held, held + " * 1.0000001", 1))


def test_a_spec_reading_positions_has_no_across_form(tmp_path):
    """Its tiles count positions from their chunk's start, so a spec whose expressions read an
    element's position (a gather's mask) keeps the row kernel's own form only."""
    spec = tmp_path / "pos_norm.red"
    spec.write_text("op pos_norm\nin x[M, N] : f32\nin t[M] : i64\nout y[M, N] : like x\nacc f32\n"
                    "reduce N: q = sum(x * x)\ng = x[t]\ny = x * rsqrt(q / N + 0.000001) + g\n"
                    "tile N = 16\nsplit N fixed_size 64\n")
    built = build_spec(spec, "cuda", empirical=False)
    assert built.plan.row_tiles and not built.plan.row_across and "_k_rows_across" not in built.source


def test_layer_norm_across_groups_its_weight_loads(monkeypatch):
    """The output sweep's other inputs (weight, bias) in MAPG groups of the across tiles."""
    x = torch.randn(2, 16384, generator=torch.Generator().manual_seed(6))
    seen = launches(layer_norm, monkeypatch)
    across = _call("layer_norm", layer_norm, x)
    assert seen[0][0] == "_k_rows_across" and 1 <= seen[0][1]["MAPG"] <= seen[0][1]["CT"]
    assert _walked_bits_equal("layer_norm", layer_norm, x, across, monkeypatch)
