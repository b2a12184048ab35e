"""The row kernels' L2 prefetch (redgen/plan.py ROW_PREFETCH_MIN): which specs have it, when a launcher
turns it on (16-bit rows held as loaded, longer than ROW_PREFETCH_MIN and at most ROW_PREFETCH_MAX, on
grids of more programs than ROW_PREFETCH_AHEAD waves of SMs), that the interpreter's bits do not move with it, and (see
tests/test_kernel_sass.py) that the GPU's compile issues it."""

from __future__ import annotations

import importlib

import pytest
import torch

from redgen import plan
from redgen.pipeline import plan_spec

# The specs that tune the bound up: fp8 writes a byte an element and gained at rows of 32000 (run 255).
TUNED_MAX = {"fp8_quant": 32768, "fp8_quant_e5m2": 32768}


@pytest.mark.parametrize("op", ["softmax_held", "log_softmax_held", "layer_norm", "rms_norm", "rms_norm_rstd",
                                "fp8_quant", "fp8_quant_e5m2"])
def test_specs_that_write_long_held_rows_prefetch(op):
    p = plan_spec(f"specs/{op}.red", "cuda")
    assert p.row_prefetch == plan.ROW_PREFETCH_MIN
    mod = importlib.import_module(f"generated.cuda.{op}")
    assert mod.ROW_PREFETCH_MIN == plan.ROW_PREFETCH_MIN and mod.ROW_PREFETCH_AHEAD == plan.ROW_PREFETCH_AHEAD
    assert mod.ROW_PREFETCH_MAX == TUNED_MAX.get(op, plan.ROW_PREFETCH_MAX)
    assert "def _rg_prefetch(" in open(mod.__file__).read()


@pytest.mark.parametrize("op", [
    "sum", "argmax",  # one read: rows of at most ROW_ONCE_MAX held, nothing written over the reduce axis
    "logsumexp_held", "var_held",  # rows held, one value a row written
    "softmax",  # its own walks hold rows of at most 4096 (softmax_stats); longer ones go to softmax_held
    "add_rms_norm",  # rows of two inputs (x and the residual): it lost at every point timed (run 213)
])
def test_other_specs_have_no_prefetch(op):
    assert plan_spec(f"specs/{op}.red", "cuda").row_prefetch == 0
    mod = importlib.import_module(f"generated.cuda.{op}")
    assert not hasattr(mod, "ROW_PREFETCH_MIN") and "_rg_prefetch" not in open(mod.__file__).read()


def _row_launch(mod, fn, args, monkeypatch):
    """The row kernel's launch of fn(*args): (kernel name, constexprs), none run."""
    monkeypatch.setattr(mod, "_PLANS", {})
    seen = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, a, consts: seen.append((kernel.fn.__name__, consts)))
    fn(*args)
    (name, consts), = seen
    assert name in ("_k_rows_row", "_k_rows_across"), name
    return consts


def _inputs(op, m, n, dtype):
    x = torch.randn(m, n).to(dtype)
    w = torch.randn(n).to(dtype)
    return {"softmax_held": (x, -1), "layer_norm": (x, w, w), "rms_norm": (x, w), "fp8_quant": (x, -1)}[op]


@pytest.mark.parametrize("op", ["softmax_held", "layer_norm", "rms_norm"])
@pytest.mark.parametrize(("dtype", "m", "n", "sms", "want"), [
    (torch.bfloat16, 9, 20000, 4, (4, 512)),  # 40000 bytes a row: 313 lines, 512 lanes
    (torch.float16, 9, 24576, 4, (4, 512)),  # 49152 bytes: 384 lines
    (torch.bfloat16, 9, 28000, 4, (4, 512)),  # seven chunks (softmax_held and log_softmax_held gained, run 255)
    (torch.bfloat16, 9, 28672, 2, (2, 512)),  # ROW_PREFETCH_MAX, on two SMs
    (torch.bfloat16, 9, 28673, 4, (0, 0)),  # past ROW_PREFETCH_MAX: eight chunks (rows of 32000 lost with it, runs 252-255)
    (torch.float16, 9, 32000, 4, (0, 0)),
    (torch.float32, 9, 20000, 4, (0, 0)),  # f32 rows lost with it (run 212)
    (torch.bfloat16, 9, 16384, 4, (0, 0)),  # not past ROW_PREFETCH_MIN
    (torch.bfloat16, 4, 20000, 4, (0, 0)),  # one wave: no program after it
    (torch.bfloat16, 9, 20000, 0, (0, 0)),  # a CPU tensor's 0 SMs: never under the interpreter
])
def test_the_launcher_prefetches_long_16_bit_rows_past_a_wave(op, dtype, m, n, sms, want, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{op}")
    monkeypatch.setattr(mod, "_CPU_SMS", sms)
    consts = _row_launch(mod, getattr(mod, op), _inputs(op, m, n, dtype), monkeypatch)
    assert (consts["PF"], consts["PF_LINES"]) == want


@pytest.mark.parametrize(("n", "want"), [(32000, (4, 512)), (32768, (4, 512))])
def test_a_spec_that_tunes_the_bound_up_prefetches_past_it(n, want, monkeypatch):
    """fp8_quant tunes ROW_PREFETCH_MAX to 32768 (specs/fp8_quant.red): rows of eight chunks prefetched (the
    row kernels hold at most eight)."""
    mod = importlib.import_module("generated.cuda.fp8_quant")
    monkeypatch.setattr(mod, "_CPU_SMS", 4)
    consts = _row_launch(mod, mod.fp8_quant, _inputs("fp8_quant", 9, n, torch.bfloat16), monkeypatch)
    assert (consts["PF"], consts["PF_LINES"]) == want


def test_the_rule_counts_the_inputs_a_row_holds():
    """Specs whose reductions read two inputs along the row are left out (add_rms_norm, both inputs
    prefetched, lost at every point timed in run 213)."""
    assert plan._row_read(plan_spec("specs/add_rms_norm.red", "cuda").op) == {"x", "r"}
    assert plan._row_read(plan_spec("specs/layer_norm.red", "cuda").op) == {"x"}


def test_the_knob_turns_it_off(monkeypatch):
    """ROW_PREFETCH_MIN is a knob of the replay key (a sweep sets it between calls)."""
    mod = importlib.import_module("generated.cuda.softmax_held")
    assert "ROW_PREFETCH_MIN" in open(mod.__file__).read().split("def _knobs(")[1].split("\ndef ")[0]
    monkeypatch.setattr(mod, "_CPU_SMS", 4)
    monkeypatch.setattr(mod, "ROW_PREFETCH_MIN", 1 << 30)
    consts = _row_launch(mod, mod.softmax_held, _inputs("softmax_held", 9, 20000, torch.bfloat16), monkeypatch)
    assert consts["PF_LINES"] == 0


def test_the_interpreters_bits_do_not_move(monkeypatch):
    """With the launcher's prefetch on (a stand-in SM count), the kernels run its code path and give the
    bits they give without it, row 0 alone included (the interpreter has no asm: _rg_prefetch is the
    GPU's alone; run 212 compared the GPU's bits)."""
    mod = importlib.import_module("generated.cuda.softmax_held")
    x = (torch.randn(3, 16400) * 3).to(torch.bfloat16)
    want = mod.softmax_held(x, -1)
    monkeypatch.setattr(mod, "_PLANS", {})
    monkeypatch.setattr(mod, "_CPU_SMS", 2)
    seen = []
    go = mod._go
    monkeypatch.setattr(mod, "_go", lambda k, g, a, c: (seen.append(c.get("PF_LINES")), go(k, g, a, c))[1])
    got = mod.softmax_held(x, -1)
    assert seen == [512]  # a row of 32800 bytes: 257 lines, 512 lanes
    assert torch.equal(got, want)
    assert torch.equal(mod.softmax_held(x[:1].clone(), -1)[0], want[0])
