"""cuda's fused rows walks of 16-bit rows of several chunks sweep their outputs over the reduce axis in
ROWS_OUT_STAGES software-pipelined stages (redgen/plan.py, ROWS_OUT_STAGES).

The stages move when a tile's loads are issued, never which tiles are loaded or what is stored:
the certificate's note on outputs over the reduce axis says so, and H200 runs 198-199
(docs/gpu_2026_11_29/README.md) compared the bits with the sweep unstaged. What is tested here is
the rule: which launches take STAGES > 1 (the rows kernel's fused path, 16-bit elements, rows of
several chunks), that the staged and unstaged sweeps compute the same outputs, that only specs with
outputs over the reduce axis have it, and that a replayed call's key holds its knobs.
"""

from __future__ import annotations

import inspect

import pytest
import torch

from generated.cuda import add_rms_norm, fp8_quant, layer_norm, log_softmax, logsumexp, rms_norm, softmax
from generated.cuda import sum as sum_mod
from tests.launch_spy import knobs, launches

MODULES = {"softmax": softmax, "log_softmax": log_softmax, "fp8_quant": fp8_quant}
# Rows past what the row kernel holds, on the fused path, at a length the tests can run.
FORCE = {"SPLIT_BELOW": 0, "ROW_MAX_TILES": 0, "SHORT_MAX": 0}


def _call(name, x):
    g = torch.Generator().manual_seed(1)
    n = x.shape[-1]
    w, b = torch.randn(n, generator=g).to(x.dtype), torch.randn(n, generator=g).to(x.dtype)
    r = torch.randn(x.shape, generator=g).to(x.dtype)
    mod = MODULES[name]
    out = {"softmax": lambda: mod.softmax(x, -1), "log_softmax": lambda: mod.log_softmax(x, -1),
           "rms_norm": lambda: mod.rms_norm(x, w), "layer_norm": lambda: mod.layer_norm(x, w, b),
           "add_rms_norm": lambda: mod.add_rms_norm(x, r, w), "fp8_quant": lambda: mod.fp8_quant(x)}[name]()
    outs = out if isinstance(out, tuple) else (out,)
    return [o.view(torch.uint8) if o.element_size() == 1 else o for o in outs]  # fp8 compared as its bytes


def _fused_stages(name, monkeypatch, x, **extra):
    mod = MODULES[name]
    seen = launches(mod, monkeypatch)
    with knobs(mod, **{k: v for k, v in {**FORCE, **extra}.items() if hasattr(mod, k)}):
        out = _call(name, x)
    fused = [c for k, c in seen if k == "_k_rows_fused"]
    assert len(fused) == 1, [k for k, _ in seen]
    return fused[0]["STAGES"], out


@pytest.mark.parametrize("name", list(MODULES))
def test_16_bit_rows_of_several_chunks_sweep_in_stages(name, monkeypatch):
    mod = MODULES[name]
    assert (mod.ROWS_OUT_STAGES, mod.ROWS_OUT_ITEMSIZE) == (3, 2)
    x = torch.randn(3, 9000, generator=torch.Generator().manual_seed(0)).to(torch.bfloat16)  # 3 chunks a row
    staged, out = _fused_stages(name, monkeypatch, x)
    unstaged, plain = _fused_stages(name, monkeypatch, x, ROWS_OUT_STAGES=1)
    assert (staged, unstaged) == (3, 1)
    # the two sweeps are separate code (the kernel's STAGES branch): the same outputs, bit for bit
    assert all(torch.equal(a, b) for a, b in zip(out, plain, strict=True))


@pytest.mark.parametrize("name", list(MODULES))
@pytest.mark.parametrize(("dtype", "n"), [(torch.float32, 9000), (torch.bfloat16, 4000)])
def test_f32_rows_and_rows_of_one_chunk_keep_one_stage(name, dtype, n, monkeypatch):
    """f32 gained nothing (softmax f32 4096 x 151936 0.95-1.03x); a row of one chunk sweeps once."""
    x = torch.randn(2, n, generator=torch.Generator().manual_seed(0)).to(dtype)
    assert _fused_stages(name, monkeypatch, x)[0] == 1


@pytest.mark.parametrize("name", list(MODULES))
def test_the_split_path_and_the_row_kernel_take_no_stages(name, monkeypatch):
    mod = MODULES[name]
    seen = launches(mod, monkeypatch)
    x = torch.randn(2, 9000, generator=torch.Generator().manual_seed(0)).to(torch.bfloat16)
    with knobs(mod, **{k: v for k, v in {"SPLIT_BELOW": 1 << 62, "ROW_MAX_TILES": 0, "SHORT_MAX": 0}.items()
                       if hasattr(mod, k)}):
        _call(name, x)
    assert seen and all("STAGES" not in c for _, c in seen), [k for k, _ in seen]
    seen.clear()
    with knobs(mod, **{k: 0 for k in ("SHORT_MAX",) if hasattr(mod, k)}):
        _call(name, x[:, :600])  # held by the row kernel
    assert seen and all(k != "_k_rows_fused" and "STAGES" not in c for k, c in seen)


@pytest.mark.parametrize("name", list(MODULES))
def test_the_replay_key_and_the_certificate_hold_the_rule(name):
    mod = MODULES[name]
    assert {"ROWS_OUT_STAGES", "ROWS_OUT_ITEMSIZE"} <= mod._KNOB_NAMES
    notes = " ".join(mod.CERTIFICATE["not_order_shaping"])
    assert "ROWS_OUT_STAGES software-pipelined stages" in notes
    # one staged loop in the module: the rows kernel's fused output sweep
    assert inspect.getsource(mod).count("num_stages=STAGES") == 1
    assert "num_stages=STAGES" in inspect.getsource(mod._k_rows_fused.fn)


@pytest.mark.parametrize("mod", [sum_mod, logsumexp, rms_norm, layer_norm, add_rms_norm])
def test_ops_without_outputs_over_the_reduce_axis_or_of_several_inputs_have_no_stages(mod):
    """One read alone (sum, logsumexp) has no sweep; the norms' sweeps also load a weight, and
    staged they lost (run 199: bf16 2048 x 65536 rms_norm 0.87x, layer_norm 0.84x)."""
    assert not hasattr(mod, "ROWS_OUT_STAGES") and "STAGES" not in inspect.getsource(mod)
