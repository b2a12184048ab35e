"""Batch-invariant mode: a repeated aten signature replays its launcher's plan (runtime/route_replay.py).

Runs on CPU under the interpreter, where the mode routes the CPU dispatch key. Checked: a
repeated signature skips the adapter and gives the adapter path's bits on new data; a knob set
between calls, a tensor the adapter makes, an .out overload and attention (whose adapter reads a
mask's values) are never replayed from a stale or foreign plan.
"""

from __future__ import annotations

import os

os.environ["TRITON_INTERPRET"] = "1"

import importlib  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402, N812

import redgen  # noqa: E402
from redgen.runtime import mode  # noqa: E402
from redgen.runtime.loader import load  # noqa: E402


def _x(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _signatures(aten: str) -> dict:
    return mode._STATE.replays[aten, "CPU"].plans


@pytest.mark.parametrize("case", ["mean", "mm", "layer_norm"])
def test_a_repeated_signature_skips_the_adapter_with_the_same_bits(case, adapter_calls):
    w, b = _x(70, seed=5), _x(70, seed=6)
    calls = {
        "mean": ("mean.dim", lambda x: torch.mean(x, -1, keepdim=True), lambda x: load("mean")(x, -1, True)),
        "mm": ("mm.default", lambda x: x @ w[:40, None].expand(40, 3),
               lambda x: load("matmul")(x, w[:40, None].expand(40, 3))),
        "layer_norm": ("native_layer_norm.default", lambda x: F.layer_norm(x, (70,), w, b),
                       lambda x: load("layer_norm")(x, w, b)[0]),
    }
    aten, torch_call, direct = calls[case]
    shape = (5, 40) if case == "mm" else (5, 70)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        first = torch_call(_x(*shape))
        assert adapter_calls[0] == 1 and len(_signatures(aten)) == 1
        new = _x(*shape, seed=3)
        got = torch_call(new)
        assert adapter_calls[0] == 1  # replayed: no adapter
        assert mode.call_counts()[aten] >= 2
    assert first.shape == got.shape
    assert torch.equal(got, direct(new))


def test_a_knob_set_between_calls_runs_the_adapter_again(adapter_calls, monkeypatch):
    mod = importlib.import_module(load("mean").__module__)
    x = _x(3, 9000)  # three chunks: the fused and split paths differ in launches
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        torch.mean(x, -1)
        torch.mean(x, -1)
        assert adapter_calls[0] == 1
        monkeypatch.setattr(mod, "SPLIT_BELOW", 0)  # the fused path
        got = torch.mean(x, -1)
        assert adapter_calls[0] == 2
        (plan,) = _signatures("mean.dim").values()
        assert len(plan[1][5]) == 1  # one launch: the fused kernel's plan replaces the split one
    assert torch.equal(got, mod.mean(x, -1))


def test_a_tensor_the_adapter_makes_is_never_replayed_by_signature(adapter_calls):
    x = _x(4, 70)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        for _ in range(2):
            F.layer_norm(x, (70,))  # no weight: the adapter's tensor of ones
        assert adapter_calls[0] == 2 and len(_signatures("native_layer_norm.default")) == 0


def test_out_overloads_keep_their_adapters(adapter_calls):
    x, out = _x(4, 70), torch.empty(4)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        for _ in range(2):
            torch.mean(x, -1, out=out)  # the result is copied into `out`: not the launcher's
        assert len(_signatures("mean.out")) == 0
    assert adapter_calls[0] == 2


def test_attention_is_replayed_without_a_mask_and_never_with_one(adapter_calls):
    # (v distinct from k: a plan never holds one tensor in two places)
    q, k, v = _x(1, 4, 6, 16), _x(1, 2, 6, 16, seed=1), _x(1, 2, 6, 16, seed=4)
    q2, k2, v2 = _x(1, 4, 6, 16, seed=2), _x(1, 2, 6, 16, seed=3), _x(1, 2, 6, 16, seed=5)
    aten = "_scaled_dot_product_flash_attention_for_cpu.default"
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        n = adapter_calls[0]
        got = F.scaled_dot_product_attention(q2, k2, v2, is_causal=True, enable_gqa=True)
        assert adapter_calls[0] == n and len(_signatures(aten)) == 1  # the signature decides: replayed
        mask = torch.ones(6, 6, dtype=torch.bool).tril()
        for _ in range(2):
            masked = F.scaled_dot_product_attention(q2, k2, v2, attn_mask=mask, enable_gqa=True)
        assert adapter_calls[0] == n + 2 and len(_signatures(aten)) == 1  # a mask's values decide
    want = load("attention")(*(t.transpose(1, 2) for t in (q2, k2, v2)), causal=True).transpose(1, 2)
    assert torch.equal(got, want) and torch.equal(masked, want)


def test_returns_describe_views_held_tensors_and_integers():
    from redgen.runtime import route_replay

    o, lse, held = _x(2, 3), _x(2, seed=1), torch.empty(0)
    rets = route_replay._returns((o, lse.unsqueeze(-1), held, 5), (o, lse))
    assert rets[0] == (0, 0) and rets[1] == (1, 1, (2, 1), (1, 1), 0) and rets[3] == (3, 5)
    assert rets[2][0] == 2 and rets[2][1] is held
    o2, lse2 = _x(2, 3, seed=2), _x(2, seed=3)
    got = route_replay.assemble(rets, (o2, lse2))
    assert got[0] is o2 and got[2] is held and got[3] == 5
    assert torch.equal(got[1], lse2.unsqueeze(-1)) and got[1].data_ptr() == lse2.data_ptr()
    assert route_replay._returns(o, (o2,)) is None  # one result, not the launcher's
    assert route_replay._returns((o, "causal"), (o,)) is None  # neither a tensor nor an integer


def test_signatures_outlive_the_mode_for_the_same_modules(adapter_calls, monkeypatch):
    """A model wrapped in batch_invariant() per generate does not probe its signatures again at
    each entry; a route whose generated functions changed starts afresh."""
    with torch.no_grad(), redgen.batch_invariant():
        torch.mean(_x(2, 8), -1)
        assert _signatures("mean.dim") and adapter_calls[0] == 1
    assert mode._STATE.replays == {}  # none installed
    with torch.no_grad(), redgen.batch_invariant():
        got = torch.mean(_x(2, 8, seed=1), -1)
        assert adapter_calls[0] == 1  # replayed from the first entry's signature
    assert torch.equal(got, load("mean")(_x(2, 8, seed=1), -1))
    from redgen.runtime import loader

    real = loader.load
    other = {}

    def load_other(name, target="cuda", **kw):  # another function object for the op: another module's
        fn = real(name, target, **kw)
        return other.setdefault(name, lambda *a, **k: fn(*a, **k))

    monkeypatch.setattr(mode, "load", load_other)
    with torch.no_grad(), redgen.batch_invariant():
        assert not _signatures("mean.dim")


def test_the_host_time_bench_runs_without_a_gpu():
    """benchmarks/host_stub.py (the launchers' Python timed with stand-in kernels): every row,
    the direct call and the mode's, in a few calls."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "host_stub.py"), "--calls", "5"],
                         capture_output=True, text=True, timeout=300, cwd=root,
                         env={**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ") and " us" not in line]
    assert len(rows) == 7 and any(r.startswith("| attention decode") for r in rows)
