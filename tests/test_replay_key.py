"""Issue 12: what a generated cuda launcher's replay key holds, and how cheaply (replay.py.j2).

A module that `import` or redgen.load executed (sys.modules holds it) watches its own globals:
its key holds a count of knob settings, not every knob's value. One executed by hand keys on
the values. Either way a knob set records anew and a knob set back finds its plan. A public
function builds its key inline; what `_sig` would refuse, or a tensor the host reads by value,
is never recorded under it. A `short` op remembers, by key, which calls it handed on.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

import pytest
import torch

from redgen.runtime.loader import generated_dir, load

SPLIT = 1 << 62  # SPLIT_BELOW: every call takes the split path


def _mod(op):
    return importlib.import_module(load(op, "cuda").__module__)


def _x(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _by_hand(op, name, register=False):
    spec = importlib.util.spec_from_file_location(name, generated_dir() / "cuda" / f"{op}.py")
    mod = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _replays(mod, monkeypatch):
    seen = []
    real = mod._replay
    monkeypatch.setattr(mod, "_replay", lambda plan, args: seen.append(plan) or real(plan, args))
    return seen


def test_an_imported_module_counts_its_knob_settings(monkeypatch):
    mod = _mod("mean")
    assert isinstance(mod, mod._Watched) and isinstance(mod._KNOB_GEN, int)
    assert {"SPLIT_BELOW", "UNROLL", "_INTERPRET"} <= mod._KNOB_NAMES
    gen = mod._KNOB_GEN
    monkeypatch.setattr(mod, "_PLANS", {})  # a private global, not a knob: no count
    assert mod._KNOB_GEN == gen
    mod.mean(_x(2, 8), 1)
    ((key, _),) = mod._PLANS.items()
    assert key[1] == gen  # the count, not the knobs' values
    monkeypatch.setattr(mod, "SPLIT_BELOW", SPLIT)
    assert mod._KNOB_GEN == gen + 1
    mod.mean(_x(2, 8), 1)
    assert len(mod._PLANS) == 2  # recorded anew
    mod.ANY_PUBLIC_NAME = 1  # a public global (SHORT_MAX decides before a plan is asked for)
    del mod.ANY_PUBLIC_NAME
    assert mod._KNOB_GEN == gen + 3


def test_a_module_executed_by_hand_keys_on_its_knobs_values(monkeypatch):
    mod = _by_hand("mean", "redgen_test_hand_mean")
    assert type(mod) is types.ModuleType and mod._KNOB_GEN is None
    x = _x(3, 40)
    want = mod.mean(x, 1)
    ((key, _),) = mod._PLANS.items()
    assert key[1] == mod._knobs()
    mod.SPLIT_BELOW, default = SPLIT, mod.SPLIT_BELOW
    assert torch.equal(mod.mean(x, 1), want) and len(mod._PLANS) == 2  # recorded anew
    mod.SPLIT_BELOW = default
    seen = _replays(mod, monkeypatch)
    assert torch.equal(mod.mean(x, 1), want) and len(seen) == 1 and len(mod._PLANS) == 2  # its first plan


def test_a_reloaded_module_is_watched_again():
    name = "redgen_test_reload_mean"
    try:
        mod = _by_hand("mean", name, register=True)
        assert isinstance(mod, mod._Watched) and mod._KNOB_GEN == 0
        mod.UNROLL = 1
        assert mod._KNOB_GEN == 1
        mod.__spec__.loader.exec_module(mod)  # what importlib.reload does: the same object, executed anew
        assert isinstance(mod, mod._Watched) and mod._KNOB_GEN == 0 and mod.UNROLL != 1
        mod.UNROLL = 1
        assert mod._KNOB_GEN == 1
    finally:
        sys.modules.pop(name, None)


def test_a_tensor_the_host_reads_is_never_recorded():
    """An `eps` given as a 0-d tensor: its value is read on the host into the launch, and a
    tensor's key is its signature (or, inline, its identity): changed in place, it must count."""
    mod = _mod("rms_norm")
    mod._PLANS.clear()
    x, w, eps = _x(3, 8), _x(8, seed=1), torch.tensor(1e-5)
    mod.rms_norm(x, w, eps=eps)
    assert mod._PLANS == {}
    eps.fill_(4.0)
    assert torch.equal(mod.rms_norm(x, w, eps=eps), mod.rms_norm(x, w, eps=4.0))


def test_a_float_in_a_dim_tuple_is_refused_after_the_int_one_replays():
    """(0, 1) == (0.0, 1) in Python: the key holds a tuple dim's element types."""
    mod = _mod("sum")
    mod._PLANS.clear()
    x = _x(2, 3, 4)
    mod.sum(x, (0, 1))
    mod.sum(x, (0, 1))
    with pytest.raises(TypeError, match=r"dim must be an int or a tuple of ints, got \(0.0, 1\)"):
        mod.sum(x, (0.0, 1))
    with pytest.raises(TypeError, match="dim must be an int or a tuple of ints"):
        mod.sum(x, (True, 1))


def test_a_short_call_is_decided_once_per_key(monkeypatch):
    mod = _mod("softmax")
    held = importlib.import_module(load("softmax_held", "cuda").__module__)
    asked = []
    real = mod._is_short
    monkeypatch.setattr(mod, "_is_short", lambda *a: asked.append(a[0]) or real(*a))
    monkeypatch.setattr(mod, "_SHORT_KEYS", set())
    mod._PLANS.clear()
    x = _x(4, 33)
    want = held.softmax_held(x, -1)
    assert all(torch.equal(mod.softmax(x, -1), want) for _ in range(3))
    assert len(asked) == 1 and len(mod._SHORT_KEYS) == 1 and mod._PLANS == {}
    monkeypatch.setattr(mod, "SHORT_MAX", 16)  # the knobs' state moves: asked again, not short now
    mod.softmax(x, -1)
    mod.softmax(x, -1)
    assert len(asked) == 2 and len(mod._PLANS) == 1  # then its own plan answers
    monkeypatch.setattr(mod, "SHORT_MAX", 32768)
    g = x.clone().requires_grad_()
    with torch.no_grad():  # short, but grad mode is not in the key: asked each call
        mod.softmax(g, -1)
        mod.softmax(g, -1)
    assert len(asked) == 4 and len(mod._SHORT_KEYS) == 1
    mod.softmax(x, -1)
    mod.softmax(x, -1)
    assert len(asked) == 5 and len(mod._SHORT_KEYS) == 2  # x's key again, under the new count


def test_an_executed_by_hand_short_op_keys_on_short_max(monkeypatch):
    mod = _by_hand("softmax", "redgen_test_hand_softmax")
    assert "SHORT_MAX" in mod._KNOB_NAMES and mod._KNOB_GEN is None
    x = _x(4, 33)
    short = mod.softmax(x, -1)
    assert len(mod._SHORT_KEYS) == 1 and mod._PLANS == {}
    mod.SHORT_MAX = 0
    own = mod.softmax(x, -1)
    assert len(mod._PLANS) == 1 and torch.allclose(own, short, atol=1e-6)


@pytest.mark.parametrize("op", ["mean", "softmax", "attention"])
def test_the_key_asks_torchs_binding_for_the_device(op, monkeypatch):
    """On a GPU build of torch the key's device comes from torch._C._cuda_getDevice, without
    torch.cuda.current_device()'s Python check (H200 run 201: 0.150 against 0.428 us); a CPU build
    has no binding, and the device then comes from torch.cuda.current_device (the stand-ins')."""
    mod = _mod(op)
    assert mod._GET_DEVICE is getattr(torch._C, "_cuda_getDevice", None)
    monkeypatch.setattr(mod, "_INTERPRET", False)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 3)
    monkeypatch.setattr(mod, "_GET_DEVICE", None)
    assert mod._device() == 3
    monkeypatch.setattr(mod, "_GET_DEVICE", lambda: 5)
    assert mod._device() == 5
    monkeypatch.setattr(mod, "_INTERPRET", True)
    assert mod._device() == -1  # the interpreter's tensors are the CPU's
