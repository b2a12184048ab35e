"""scripts/kernel_sass.py: a generated cuda module's call compiled for sm_90 without a GPU (its launches
recorded, each kernel compiled as Triton's JIT would, the SASS read with the wheel's cuobjdump), and its
refusals of a bad module, shape, dim, dtype or keyword, each named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import kernel_sass  # noqa: E402


def _run(argv):
    """The script in a process of its own (Triton compiles there; this one interprets)."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "kernel_sass.py"), *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_a_call_compiles_for_sm_90(tmp_path):
    """nansum over the middle axis of a view of 16384 columns: the stack walk's kernel, its constexprs,
    registers and SASS; nansum's widened loads leave no packed 16-bit instruction there."""
    out = tmp_path / "sass"
    argv = [str(ROOT / "generated/cuda/nansum.py"), "--shape", "128,64,128", "--dim", "1", "--sass", str(out)]
    done = _run(argv)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    # 16384 columns: the stack's leaves in 8 runs, 32 columns a program (plan.COLS_STACK_SPLIT_COLS)
    assert "_k_cols_fused grid (512,)" in text and "'STACK': 4, 'DEPTH': 1, 'SPLIT': 8" in text
    assert "registers a thread" in text and ", 0 packed 16-bit" in text
    sass = (out / "0__k_cols_fused.sass").read_text()
    assert "LDG" in sass and "HSETP2" not in sass


def test_flat_columns_load_a_bf16_pair_a_load(tmp_path):
    """The cols walk's flat columns (K 64 < COLS_FLAT_BELOW, across batch rows): their mask is constant
    across each ALIGN columns (tl.max_constancy), so each thread's bfloat16 columns are one load, not
    16-bit ones (H200 run 114: sum bf16 8192 x 64 x 32 16.1 -> 8.8 us). A view of 65536 columns or more
    in bf16 (plan.COLS_STACK_DEEP_NARROW_MIN): 1024 columns a program (2048 bytes) in 8 runs of 128,
    eight columns a thread in one 16-byte load; below it, 256 columns in 8 runs of 32, a 32-bit pair a
    load."""
    out = tmp_path / "sass"
    for shape, launch, load in (("2560,80,64", "'BLOCK': 128,", "LDG.E.128 "), ("2048,80,16", "'BLOCK': 32,", "LDG.E ")):
        done = _run([str(ROOT / "generated/cuda/sum.py"), "--shape", shape, "--dim", "1", "--sass", str(out)])
        assert done.returncode == 0, done.stderr
        assert launch in done.stdout and "'DEPTH': 1, 'SPLIT': 8, 'LOG2_SPLIT': 3, 'FLAT': True" in done.stdout, shape
        sass = (out / "0__k_cols_fused.sass").read_text()
        assert load in sass and "LDG.E.U16" not in sass, shape


def test_a_call_handed_to_another_module_and_the_gpu_exp(tmp_path):
    """softmax hands a row of at most 32768 to softmax_held's module: that module's launch is recorded
    too, and compiled with the GPU's exp (_rg_exp's ex2.approx.ftz.f32, not the interpreter's tl.exp,
    whose ex2.approx.f32 rescales near the subnormal range)."""
    out = tmp_path / "sass"
    done = _run([str(ROOT / "generated/cuda/softmax.py"), "--shape", "4,4096", "--dim", "1", "--sass", str(out)])
    assert done.returncode == 0, done.stderr
    first, launch = done.stdout.splitlines()[:2]
    assert first.startswith("triton ") and ", ptxas " in first  # the compiler named: its registers are its own
    assert launch.startswith("_k_rows_row grid (4,)")
    ptx = (out / "0__k_rows_row.ptx").read_text()
    assert "ex2.approx.ftz.f32" in ptx and "ex2.approx.f32" not in ptx


def test_packed_instructions_are_counted():
    """Packed 16-bit arithmetic counts; HFMA2.MMA (a register move) does not."""
    sass = "\n".join([
        "        /*0600*/                   HSETP2.BF16_V2.NAN.AND P5, P6, R16, R16, PT ;",
        "        /*0610*/              @P3 LDG.E.U16 R16, desc[UR8][R2.64] ;",
        "        /*0620*/                   HFMA2.MMA R4, -RZ, RZ, 0, 0 ;",
        "        /*0630*/                   HFMA2.BF16_V2 R28, -RZ.H0_H0, RZ.H0_H0, |R28| ;",
    ])
    assert kernel_sass.summary(sass) == {"instructions": 4, "global loads": 1, "packed 16-bit": 2}


@pytest.mark.parametrize(("argv", "message"), [
    (["nope.py", "--shape", "2,3"], "no such module: nope.py"),
    (["generated/ascend/sum.py", "--shape", "2,3"], "is not a generated cuda module"),
    (["generated/cuda/sum.py", "--shape", "2,x"], "--shape must be integers separated by commas, got '2,x'"),
    (["generated/cuda/sum.py", "--shape", "2,3", "--dim", "5"], "dim 5 is out of range"),
    (["generated/cuda/sum.py", "--shape", "2,3", "--dtype", "f64"], "--dtype must be one of"),
    (["generated/cuda/vector_norm.py", "--shape", "2,3", "--kwarg", "ord"], "--kwarg must be name=value"),
    (["generated/cuda/vector_norm.py", "--shape", "2,3", "--kwarg", "ord=x"], "--kwarg ord: a number, got 'x'"),
    (["generated/cuda/softmax.py", "--shape", "2,3", "--knob", "UNROLL"], "--knob must be NAME=VALUE, got 'UNROLL'"),
    (["generated/cuda/softmax.py", "--shape", "2,3", "--knob", "UNROLL=x"], "--knob UNROLL: an integer, got 'x'"),
    (["generated/cuda/softmax.py", "--shape", "2,3", "--knob", "ROW_X=2"], "--knob ROW_X: not a knob of softmax"),
])
def test_bad_arguments_are_named(argv, message):
    done = _run(argv)
    assert done.returncode == 2
    assert done.stderr.startswith("kernel_sass: ") and message in done.stderr and "Traceback" not in done.stderr


def test_it_refuses_an_interpreting_process(capsys, monkeypatch):
    """In a process whose Triton interprets (this one), its kernels would not compile: it says so."""
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    import triton  # noqa: F401

    assert kernel_sass.main(["generated/cuda/sum.py", "--shape", "2,3"]) == 2
    assert "a process of its own" in capsys.readouterr().err


def test_a_walks_group_loads_at_immediate_offsets(tmp_path):
    """The chunk walks load an UNROLL group's tiles at 64-bit offsets from the group's base, u * LANES
    apart (macros.j2 `chunk`): the compiler folds them into the loads' immediate offsets, one address a
    group, where each tile's sign-extended int32 position took its own 64-bit address arithmetic.
    argmax bf16 4096 x 16384 (the split path's partial kernel): tile u of a group at +u * 512 bytes."""
    out = tmp_path / "sass"
    done = _run([str(ROOT / "generated/cuda/argmax.py"), "--shape", "4096,16384", "--dim", "1", "--dtype", "bf16",
                 "--sass", str(out)])
    assert done.returncode == 0, done.stderr
    sass = (out / "0__k_rows_partial0.sass").read_text()
    for u in range(1, 8):
        assert f".64+{hex(u * 512)}]" in sass, u


def test_packed_rows_load_four_words_a_load(tmp_path):
    """The across form's packed bf16 rows (PACK: two values a 32-bit word) mask a word by `pp < clen // 2`,
    which the compiler sees constant over a thread's run of words: softmax_held bf16 4096 x 16384 (four
    chunks, ROW_ACROSS_PACK_LANES 8: 4 warps, four words of each tile a thread) loads them as one 16-byte
    load a tile. Its earlier mask, `2 * pp < clen`, hid that and took a 4-byte load a word (in 8 warps,
    32 loads for 32 words; run 177)."""
    out = tmp_path / "sass"
    done = _run([str(ROOT / "generated/cuda/softmax_held.py"), "--shape", "4096,16384", "--dim", "1", "--dtype",
                 "bf16", "--sass", str(out)])
    assert done.returncode == 0, done.stderr
    assert "_k_rows_across grid (4096,)" in done.stdout and "'PACK': True" in done.stdout
    assert "'num_warps': 4," in done.stdout
    sass = (out / "0__k_rows_across.sass").read_text()
    assert sass.count("LDG.E.128 ") == 16 and "LDG.E " not in sass and "LDG.E.64 " not in sass


def test_a_knob_set_on_the_module_short_rows_go_to(tmp_path):
    """--knob sets a launcher knob where the call's schedule reads it, also on the module softmax hands
    its rows of 32000 to: ROW_ACROSS_LANES 2 gives softmax_held's across form two lanes of a tile a thread,
    32 warps where 4 gave it 16 (bf16 4096 x 32000: eight chunks of 256 lanes a tile)."""
    argv = [str(ROOT / "generated/cuda/softmax.py"), "--shape", "4096,32000", "--dim", "1", "--dtype", "bf16"]
    for knob, warps in ((None, 16), ("ROW_ACROSS_LANES=2", 32)):
        done = _run(argv + (["--knob", knob] if knob else []))
        assert done.returncode == 0, done.stderr
        assert "_k_rows_across grid (4096,)" in done.stdout and f"'num_warps': {warps}," in done.stdout, knob


@pytest.mark.parametrize(("dtype", "widen"), [("bf16", "shl.b32"), ("f16", "cvt.f32.f16")])
def test_held_index_pairs_combine_in_float32(tmp_path, dtype, widen):
    """argmax's held 16-bit rows (the row kernel at a short grid): each load widened where the compiler
    cannot narrow it back (_rg_f32_held), so the pair combine compiles to float32 compares, not to
    packed 16-bit ones (held that way they lost 0.32-0.90x, H200 run 203; widened 1.0-1.8x, runs 205
    and 208)."""
    out = tmp_path / "sass"
    done = _run([str(ROOT / "generated/cuda/argmax.py"), "--shape", "2,8192", "--dim", "1", "--dtype", dtype,
                 "--sass", str(out)])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("_k_rows_row grid (2,)")
    ptx, sass = (out / "0__k_rows_row.ptx").read_text(), (out / "0__k_rows_row.sass").read_text()
    assert widen in ptx
    assert "HSETP2" not in sass and "HMNMX2" not in sass


@pytest.mark.parametrize(("dtype", "n", "kernel", "fetch"), [
    ("bf16", 24576, "_k_rows_row", True),
    ("f32", 24576, "_k_rows_across", False),  # f32 rows lost with it (run 212)
    ("bf16", 28000, "_k_rows_across", True),  # seven chunks across: ROW_PREFETCH_MAX 28672 (run 255)
    ("bf16", 32000, "_k_rows_across", False),  # past ROW_PREFETCH_MAX: rows of 32000 lost with it (runs 252-255)
])
def test_long_16_bit_held_rows_prefetch_the_next_wave(tmp_path, dtype, n, kernel, fetch):
    """softmax_held 4096 x N, one row a program (the row kernel at 24576 in bf16, the across form
    elsewhere): in bf16 at 24576 and 28000 each program asks L2 for the row of the program a wave of 132
    SMs on (the script's GPU_SMS), 384 and 438 lines of 128 bytes in 512 lanes, one prefetch.global.L2 a
    thread (a CCTL in SASS); the others compile without it."""
    out = tmp_path / "sass"
    done = _run([str(ROOT / "generated/cuda/softmax_held.py"), "--shape", f"4096,{n}", "--dim", "1", "--dtype",
                 dtype, "--sass", str(out)])
    assert done.returncode == 0, done.stderr
    assert f"{kernel} grid (4096,)" in done.stdout
    assert ("'PF': 132, 'PF_LINES': 512" if fetch else "'PF': 0, 'PF_LINES': 0") in done.stdout
    ptx, sass = (out / f"0_{kernel}.ptx").read_text(), (out / f"0_{kernel}.sass").read_text()
    assert ("prefetch.global.L2" in ptx) == fetch and ("CCTL" in sass) == fetch
