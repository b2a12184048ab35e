"""Issue 12: a generated cuda launcher replays a repeated call signature (`_replayed`).

The first call of a signature runs the launcher's Python and records its launches; a
repeat allocates the outputs and workspaces and replays them with its own tensors. Here,
under the interpreter: every shipped cuda module's replay gives the bits of its general
path on new data; what must not be replayed is not (copies, aliasing, a missing weight);
whatever the signature holds (knobs, dtypes, alignment, grad) records anew; and, against a
stand-in for a compiled Triton kernel, a replay calls the bound launcher with exactly the
arguments the general path passes.
"""

from __future__ import annotations

import importlib
import math

import pytest
import torch

from redgen.runtime.loader import load
from tests.stand_ins import Kernel, gpu_like

PATHS = {"split": 1 << 62, "fused": 0}


def _mod(op):
    return importlib.import_module(load(op, "cuda").__module__)


def _g(seed):
    return torch.Generator().manual_seed(seed)


def _x(*shape, seed=0, dtype=torch.float32):
    return torch.randn(*shape, generator=_g(seed)).to(dtype)


def _t(rows, classes, seed=0):
    t = torch.randint(0, classes, (rows,), generator=_g(seed))
    t[0] = -100  # an ignored row
    return t


# op -> (positional arguments from a seed, keyword arguments): a few rows of two chunks where
# the spec splits at 4096 (the split path: partial, finish and map launches, workspaces).
CALLS = {
    "mean": (lambda s: (_x(3, 4200, seed=s), 1), {}),
    "sum": (lambda s: (_x(3, 5, 2, seed=s), (1, 2), True), {"dtype": torch.float16}),
    "nansum": (lambda s: (_x(3, 70, seed=s), -1), {}),
    "amax": (lambda s: (_x(4, 33, seed=s), 0), {}),
    "amin": (lambda s: (_x(4, 33, seed=s), 1), {}),
    "argmax": (lambda s: (_x(3, 4200, seed=s), 1), {}),
    "argmin": (lambda s: (_x(5, 40, seed=s, dtype=torch.bfloat16), None), {}),
    "logsumexp": (lambda s: (_x(3, 4200, seed=s), 1), {}),
    "var": (lambda s: (_x(3, 4200, seed=s), 1), {"correction": 0.0}),
    "std": (lambda s: (_x(6, 50, seed=s), 1), {}),
    "vector_norm": (lambda s: (_x(6, 50, seed=s), 1), {"ord": 3.0}),
    "mean_2axes": (lambda s: (_x(2, 3, 4, 5, seed=s),), {}),
    "softmax": (lambda s: (_x(3, 4200, seed=s), 1), {}),
    "log_softmax": (lambda s: (_x(4, 37, 3, seed=s), 1), {}),
    "softmax_held": (lambda s: (_x(3, 300, seed=s), 1), {}),
    "log_softmax_held": (lambda s: (_x(4, 37, 3, seed=s), 1), {}),
    "rms_norm": (lambda s: (_x(5, 300, seed=s), _x(300, seed=s + 1)), {"eps": 1e-5}),
    "rms_norm_rstd": (lambda s: (_x(2, 3, 300, seed=s), _x(300, seed=s + 1)), {}),
    "add_rms_norm": (lambda s: (_x(3, 64, seed=s), _x(3, 64, seed=s + 1), _x(64, seed=s + 2)), {}),
    "layer_norm": (lambda s: (_x(2, 3, 4200, seed=s), _x(4200, seed=s + 1), _x(4200, seed=s + 2)), {}),
    "fp8_quant": (lambda s: (_x(4, 64, seed=s),), {}),
    "cross_entropy": (lambda s: (_x(5, 30, seed=s), _t(5, 30, seed=s), 1), {}),
    "nll_loss": (lambda s: (_x(5, 30, seed=s), _t(5, 30, seed=s), 1), {}),
    "matmul": (lambda s: (_x(9, 20, seed=s), _x(20, 12, seed=s + 1)), {}),
    "addmm": (lambda s: (_x(9, 20, seed=s), _x(20, 12, seed=s + 1), _x(12, seed=s + 2)), {}),
    "linear": (lambda s: (_x(9, 20, seed=s), _x(12, 20, seed=s + 1), _x(12, seed=s + 2)), {}),
    "bmm": (lambda s: (_x(2, 9, 20, seed=s), _x(2, 20, 12, seed=s + 1)), {}),
    # varlen, the longest lengths given (a dense call is bound by its geometry instead:
    # tests/test_attention_geometry.py): two sequences of 5 and 3 queries, 4 query heads over 2
    # KV heads of 16, 300 and 260 keys: two chunks, the split path
    "attention": (lambda s: (_x(8, 4, 16, seed=s), _x(560, 2, 16, seed=s + 1), _x(560, 2, 16, seed=s + 2)),
                  {"causal": True, "return_lse": True, "cu_seqlens_q": torch.tensor([0, 5, 8], dtype=torch.int32),
                   "cu_seqlens_k": torch.tensor([0, 300, 560], dtype=torch.int32),
                   "max_seqlen_q": 5, "max_seqlen_k": 300}),
}


def _outs(r):
    return r if isinstance(r, tuple) else (r,)


def _same(a, b):
    a, b = _outs(a), _outs(b)
    return len(a) == len(b) and all(
        x.shape == y.shape and x.dtype == y.dtype and x.stride() == y.stride() and torch.equal(x, y)
        for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("op", sorted(CALLS))
def test_a_replay_gives_the_general_paths_bits(op, monkeypatch):
    mod, (make, kw) = _mod(op), CALLS[op]
    if hasattr(mod, "SHORT_MAX"):  # this module's own launches (its short rows: tests/test_short.py)
        monkeypatch.setattr(mod, "SHORT_MAX", 0)
    mod._PLANS.clear()
    fn = getattr(mod, op)
    fn(*make(0), **kw)  # records
    assert len(mod._PLANS) == 1
    replays = []
    real = mod._replay
    monkeypatch.setattr(mod, "_replay", lambda plan, args: replays.append(plan) or real(plan, args))
    args = make(7)
    got = fn(*args, **kw)  # new data, same signature: replayed
    assert len(replays) == 1 and len(mod._PLANS) == 1
    mod._PLANS.clear()
    monkeypatch.setattr(mod, "_record", lambda key, run, a: run(*a))  # the general path alone
    want = fn(*args, **kw)
    assert _same(got, want)


@pytest.mark.parametrize(("op", "n_scratch"), [("softmax", 1), ("argmax", 2)])
def test_the_split_path_replays_its_workspaces(op, n_scratch, monkeypatch):
    """softmax: partial, map (which folds the partials); argmax: partial, finish (the outputs);
    argmax's partials are values and indices: two workspaces."""
    mod = _mod(op)
    if hasattr(mod, "SHORT_MAX"):
        monkeypatch.setattr(mod, "SHORT_MAX", 0)  # a row of 4200 is short: this module's own split path
    if hasattr(mod, "ROW_ROWS"):
        monkeypatch.setattr(mod, "ROW_ROWS", 0)  # argmax holds a short grid of f32 rows of 4200: not here
    monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS["split"])
    mod._PLANS.clear()
    x = _x(3, 4200)
    want = getattr(mod, op)(x, 1)
    (plan,) = mod._PLANS.values()
    launches, scratch = plan[5], plan[4]
    assert len(launches) == 2 and len(scratch) == n_scratch
    assert _same(getattr(mod, op)(x, 1), want)  # the replay


def _no_plan(mod, fn, *args, **kw):
    mod._PLANS.clear()
    out = fn(*args, **kw)
    assert mod._PLANS == {}
    return out


@pytest.mark.parametrize("split", [True, False], ids=["split", "fused"])
def test_attention_replays_its_workspaces_and_an_unreturned_logsumexp(split, monkeypatch):
    """A varlen call with its longest lengths given: the split path's partials and, without
    return_lse, the logsumexp the kernels write are workspaces the replay allocates anew."""
    mod = _mod("attention")
    monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS["split" if split else "fused"])
    mod._PLANS.clear()
    make, kw = CALLS["attention"]
    kw = {**kw, "causal": False, "return_lse": False}
    mod.attention(*make(0), **kw)
    (plan,) = mod._PLANS.values()
    assert len(plan[5]) == (2 if split else 1) and len(plan[4]) == (2 if split else 1)  # the partials: one workspace
    args = make(3)
    got = mod.attention(*args, **kw)
    mod._PLANS.clear()
    monkeypatch.setattr(mod, "_record", lambda key, run, a: run(*a))
    assert _same(got, mod.attention(*args, **kw))


def test_attention_with_lengths_read_from_the_device_is_not_recorded():
    """varlen without max_seqlen_*: the grid comes from cu_seqlens' values, which no signature
    holds. Given the maxima, a varlen call records like a dense one."""
    mod = _mod("attention")
    q, k, v = _x(7, 4, 16), _x(40, 2, 16, seed=1), _x(40, 2, 16, seed=2)
    cu_q, cu_k = torch.tensor([0, 3, 7], dtype=torch.int32), torch.tensor([0, 10, 40], dtype=torch.int32)
    out = _no_plan(mod, mod.attention, q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
    mod._PLANS.clear()
    again = mod.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, max_seqlen_q=4, max_seqlen_k=30)
    assert len(mod._PLANS) == 1 and torch.equal(out, again)


def test_calls_that_cannot_be_replayed_exactly_are_not_recorded():
    sm, rms, mean = _mod("softmax"), _mod("rms_norm"), _mod("mean")
    x = _x(2, 3, 4, 5)
    # dims no single stride merges: the output goes through a buffer copied back after the launch
    y = _no_plan(sm, sm.softmax, x, (0, 2))
    assert torch.equal(y, sm.softmax(x, (0, 2)))
    # an input copied to merge its dims: the kernel reads the copy
    _no_plan(mean, mean.mean, x, (1, 3))
    # no weight: the launcher's own tensor of ones
    _no_plan(rms, rms.rms_norm, _x(3, 8), None)
    # the weight is the input's memory: which of the two a kernel reads is ambiguous
    a = _x(4, 8)
    _no_plan(rms, rms.rms_norm, a, a[0])


def test_an_aliased_call_replays_a_plan_recorded_without_aliasing():
    rms = _mod("rms_norm")
    rms._PLANS.clear()
    rms.rms_norm(_x(4, 8), _x(8, seed=1))
    a = _x(4, 8, seed=2)
    got = rms.rms_norm(a, a[0])
    assert len(rms._PLANS) == 1
    rms._PLANS.clear()
    assert torch.equal(got, rms.rms_norm(a, a[0]))


@pytest.mark.parametrize("change", ["knob", "dtype", "alignment", "stride", "param", "dim", "grad"])
def test_whatever_the_signature_holds_records_anew(change, monkeypatch):
    mod = _mod("mean")
    mod._PLANS.clear()
    buf = _x(2 * 64 + 1)
    x, dim, kw = buf[:128].view(2, 64), 1, {}
    mod.mean(x, dim)
    if change == "knob":
        monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS["split"])
    elif change == "dtype":
        x = x.half()
    elif change == "alignment":
        x = buf[1:].view(2, 64)  # 4 bytes past a 16-byte boundary
    elif change == "stride":
        x = _x(64, 2).t()
    elif change == "param":
        kw = {"dtype": torch.float16}
    elif change == "dim":
        dim = (1,)
    else:
        x = x.clone().requires_grad_()
        kw = {}
    with torch.no_grad():
        mod.mean(x, dim, **kw)
    assert len(mod._PLANS) == 2


def test_a_replay_still_refuses_an_input_that_needs_grad():
    mod = _mod("mean")
    mod._PLANS.clear()
    x = _x(2, 8).requires_grad_()
    with torch.no_grad():
        mod.mean(x, 1)
        mod.mean(x, 1)  # replayed
    with pytest.raises(RuntimeError, match="requires grad"):
        mod.mean(x, 1)


def test_bad_arguments_raise_as_before_with_a_plan_recorded():
    mod = _mod("rms_norm")
    mod._PLANS.clear()
    x, w = _x(3, 8), _x(8)
    mod.rms_norm(x, w)
    with pytest.raises(ValueError, match=r"w has shape \(7,\)"):
        mod.rms_norm(x, _x(7))
    with pytest.raises(TypeError, match="eps must be a number"):
        mod.rms_norm(x, w, eps="1e-5")
    with pytest.raises(TypeError, match="float64"):
        mod.rms_norm(x.double(), w.double())
    assert torch.equal(mod.rms_norm(x, w, dim=[1]), mod.rms_norm(x, w, dim=1))  # a list dim: the general path


# --- the bound replay, against a stand-in for a compiled Triton kernel -----------------------
def _three_calls(monkeypatch, c_launcher=False, scratch=0):
    """rms_norm as on a GPU: recorded (Triton's path), replayed, then the general path alone
    (_go's bound launcher). The stand-in kernel's log, and the tensors by address."""
    mod = gpu_like(importlib.import_module(load("rms_norm", "cuda").__module__), monkeypatch,
                   _check_tensor=lambda *a: None)
    k = Kernel(mod._k_rows_row, c_launcher)
    if c_launcher:
        k.compiled.run.global_scratch_size = scratch
    monkeypatch.setattr(mod, "_k_rows_row", k)
    mod._PLANS.clear()
    w = _x(300)
    mod.rms_norm(_x(5, 300), w)  # recorded: Triton's path
    x2 = _x(5, 300, seed=3)
    y2 = mod.rms_norm(x2, w)  # replayed
    mod._PLANS.clear()
    monkeypatch.setattr(mod, "_record", lambda key, run, a: run(*a))
    y3 = mod.rms_norm(x2, w)  # the general path
    # the call's input and weight, and the replay's own output, by the general path's addresses
    return k.log, {x2.data_ptr(): x2, w.data_ptr(): w, y3.data_ptr(): y2}


def test_a_bound_replay_passes_the_general_paths_arguments(monkeypatch):
    """As on a GPU (not interpreting): the replay calls the compiled kernel's launcher with
    the arguments _go's bound path passes, the call's own input and a fresh output in place."""
    log, tensors = _three_calls(monkeypatch)
    assert [e[0] for e in log] == ["triton", "bound", "bound"]
    replayed, general = log[1][1], log[2][1]
    # the grid (two programs of four rows), the stream, the compiled function, no launch hooks
    assert replayed[:9] == general[:9] == (2, 1, 1, 7, "fn", "meta", None, None, None)
    assert len(replayed) == len(general)
    for a, b in zip(replayed[9:], general[9:], strict=True):
        if isinstance(b, torch.Tensor):
            assert a is tensors[b.data_ptr()]
        else:
            assert a == b and type(a) is type(b)


@pytest.mark.parametrize("scratch", [0, 64], ids=["direct", "global scratch"])
def test_a_replay_calls_the_c_launch_with_device_addresses(scratch, monkeypatch):
    """Under Triton 3.6's CudaLauncher, a replay skips its Python __call__: the C `launch` gets
    the launcher's own flags, no scratch, and each tensor as its address (the launcher then
    skips its per-tensor driver query). A kernel that needs global scratch keeps `run`."""
    log, tensors = _three_calls(monkeypatch, c_launcher=True, scratch=scratch)
    kinds = [e[0] for e in log]
    assert kinds == (["triton", "launch", "bound"] if scratch == 0 else ["triton", "bound", "bound"])
    replayed, general = log[1][1], log[2][1]
    if scratch:  # `run`, with the arguments the general path passes it
        assert replayed[:9] == general[:9] == (2, 1, 1, 7, "fn", "meta", None, None, None)
        return
    assert replayed[:13] == (2, 1, 1, 7, "fn", 0, 1, None, None, "meta", None, None, None)
    assert general[:9] == (2, 1, 1, 7, "fn", "meta", None, None, None)
    assert len(replayed) - 13 == len(general) - 9
    for a, b in zip(replayed[13:], general[9:], strict=True):
        if isinstance(b, torch.Tensor):
            assert a == tensors[b.data_ptr()].data_ptr()
        else:
            assert a == b and type(a) is type(b)


def test_a_direct_replay_takes_its_workspaces_from_one_buffer(monkeypatch):
    """argmax's split path under Triton 3.6's C launcher: its two workspaces (the partials'
    values and indices) come from one allocation a call, each at a 256-byte step (as aligned as
    the recorded launches' 16-byte specialization needs), the same address in the partial and
    the finish launch, where the recorded call had two tensors."""
    mod = gpu_like(_mod("argmax"), monkeypatch, _check_tensor=lambda *a: None)
    if hasattr(mod, "ROW_ROWS"):
        monkeypatch.setattr(mod, "ROW_ROWS", 0)  # argmax holds a short grid of f32 rows of 4200: not here
    monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS["split"])
    log = []
    for name in [n for n in vars(mod) if n.startswith("_k_")]:
        k = Kernel(getattr(mod, name), c_launcher=True)
        k.log = k.compiled.log = k.compiled.run.log = log
        monkeypatch.setattr(mod, name, k)
    mod._PLANS.clear()
    x = _x(3, 4200)
    y0 = mod.argmax(x, 1)  # recorded: Triton's path
    recorded = [e for e in log if e[0] == "triton"]
    (plan,) = mod._PLANS.values()
    scratch = plan[4]
    assert [e[0] for e in log] == ["triton", "triton"] and len(scratch) == 2
    del log[:]
    y = mod.argmax(x, 1)  # replayed
    assert [e[0] for e in log] == ["launch", "launch"]
    # where each recorded launch passed a workspace, the replay passes base + its offset
    steps = [-(-math.prod(s) * torch.empty(0, dtype=d).element_size() // 256) * 256 for s, _, d in scratch]
    offsets = [0, steps[0]]
    seen = {}
    for (_, _, args, _), (_, replayed) in zip(recorded, log, strict=True):
        values = replayed[13:]
        for pos, a in enumerate(args):
            if not isinstance(a, torch.Tensor):
                continue
            if a.data_ptr() == x.data_ptr():
                assert values[pos] == x.data_ptr()
            elif a.data_ptr() == y0.data_ptr():
                assert values[pos] == y.data_ptr()
            else:
                j = [i for i, (s, _, d) in enumerate(scratch) if d == a.dtype and s == (a.numel(),)][0]
                seen.setdefault(j, set()).add(values[pos] - offsets[j])
    assert sorted(seen) == [0, 1] and len(set.union(*seen.values())) == 1  # one base, two offsets
