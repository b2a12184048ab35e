"""Issue 12's direct call: a generated cuda module imported directly (`from generated.cuda.mean
import mean`, not through redgen.load) asks redgen's C++ replay to serve it (fast_route.bind, as
redgen.load does) at its first recorded call, once; where it cannot (the interpreter, a module
executed by hand, no redgen), its Python replay serves as before. Attention asks at its first dense
call too: its plans carry how they move with the key length, so C++ serves a growing decode itself
(tests/test_attention_family.py; before, its geometry's Python launches served it better, run 245 of
docs/gpu_2026_12_07).

Here, the ask and what follows it against stand-ins (no CUDA driver on this machine): which module
is bound, how often, and that the first call's plan reaches the bound replay in that same call.
benchmarks/host_time.py times the bound direct import on a GPU.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import pytest
import torch

from redgen.runtime import fast_route
from redgen.runtime.loader import load
from tests.stand_ins import FastReplay, Kernel, gpu_like


def _x(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


@pytest.fixture
def rms(monkeypatch):
    """rms_norm as on a GPU (stand-in kernel), never asked yet."""
    mod = gpu_like(importlib.import_module(load("rms_norm", "cuda").__module__), monkeypatch,
                   _check_tensor=lambda *a: None)
    monkeypatch.setattr(mod, "_k_rows_row", Kernel(mod._k_rows_row, c_launcher=True))
    monkeypatch.setattr(mod, "_BIND_ASKED", False)
    monkeypatch.setattr(mod, "_FAST", None)
    mod._PLANS.clear()
    return mod


def test_the_first_recorded_call_binds_the_module_once_and_hands_over_its_plan(rms, monkeypatch):
    fast, bound = FastReplay(), []

    def bind(m):
        bound.append(m)
        m._FAST = fast
        return True

    monkeypatch.setattr(fast_route, "bind", bind)
    w = _x(300)
    rms.rms_norm(_x(5, 300), w)
    assert bound == [rms]  # the module object sys.modules holds, as redgen.load binds it
    assert len(fast.stored) == 1 and fast.stored[0][2] is next(iter(rms._PLANS.values()))  # this very call's plan
    rms.rms_norm(_x(5, 300, seed=1), w)  # the same signature: asked of C++ first
    rms.rms_norm(_x(4, 300), w)  # a new signature records again: no second ask
    assert bound == [rms] and len(fast.asked) == 2 and len(fast.stored) == 3


def test_a_refused_bind_is_not_asked_again_and_python_replays(rms, monkeypatch):
    bound = []
    monkeypatch.setattr(fast_route, "bind", lambda m: bound.append(m) or False)  # no CUDA, no compiler
    w = _x(300)
    for rows in (5, 5, 4):
        rms.rms_norm(_x(rows, 300), w)
    assert bound == [rms] and rms._FAST is None and len(rms._PLANS) == 2


def test_without_redgen_the_module_replays_in_python(rms, monkeypatch):
    """A generated module needs torch and triton, not redgen: its import failing is no error."""
    import redgen.runtime

    monkeypatch.delattr(redgen.runtime, "fast_route")
    monkeypatch.setitem(sys.modules, "redgen.runtime.fast_route", None)  # import raises ImportError
    w = _x(300)
    rms.rms_norm(_x(5, 300), w)
    rms.rms_norm(_x(5, 300, seed=1), w)
    assert rms._BIND_ASKED and rms._FAST is None and len(rms._PLANS) == 1


def test_interpreted_and_hand_executed_modules_are_not_bound(monkeypatch):
    mod = importlib.import_module(load("mean", "cuda").__module__)  # the interpreter (this machine)
    bound = []
    monkeypatch.setattr(fast_route, "bind", lambda m: bound.append(m) or False)  # (after load(), which binds)
    monkeypatch.setattr(mod, "_BIND_ASKED", False)
    mod._PLANS.clear()
    mod.mean(_x(3, 50), 1)
    assert mod._BIND_ASKED and bound == []
    # executed by hand, under a name sys.modules does not hold: not the object a bind would reach
    spec = importlib.util.spec_from_file_location("mean_by_hand", mod.__file__)
    by_hand = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(by_hand)
    gpu_like(by_hand, monkeypatch, _check_tensor=lambda *a: None)
    for name in [n for n in vars(by_hand) if n.startswith("_k_")]:
        monkeypatch.setattr(by_hand, name, Kernel(getattr(by_hand, name), c_launcher=True))
    by_hand.mean(_x(3, 50), 1)
    assert by_hand._BIND_ASKED and bound == []


@pytest.mark.parametrize("first", ["dense", "varlen"])
def test_attention_imported_directly_binds_at_its_first_call(monkeypatch, first):
    """A dense call's plan carries its family (how it moves with the key length), so C++ makes a
    decode's new key lengths' plans itself: imported directly, attention binds at its first dense
    call (a new geometry), as at its first recorded varlen call, once."""
    mod = importlib.import_module(load("attention", "cuda").__module__)
    bound = []
    monkeypatch.setattr(fast_route, "bind", lambda m: bound.append(m) or False)  # (after load(), which binds)
    monkeypatch.setattr(mod, "_BIND_ASKED", False)
    gpu_like(mod, monkeypatch, _check=lambda name, t, device_type: None)
    for name in ("_attn_fwd", "_attn_combine"):
        monkeypatch.setattr(mod, name, Kernel(getattr(mod, name), c_launcher=True))
    mod._GEOMETRY.clear()
    mod._PLANS.clear()
    cu = torch.tensor([0, 1, 2], dtype=torch.int32)
    cuk = torch.tensor([0, 300, 600], dtype=torch.int32)
    calls = {"dense": lambda: mod.attention(_x(2, 1, 4, 16), _x(2, 300, 2, 16, seed=1), _x(2, 300, 2, 16, seed=2)),
             "varlen": lambda: mod.attention(_x(2, 4, 16), _x(600, 2, 16, seed=1), _x(600, 2, 16, seed=2),
                                             cu_seqlens_q=cu, cu_seqlens_k=cuk, max_seqlen_q=1, max_seqlen_k=300)}
    calls[first]()
    assert mod._BIND_ASKED and bound == [mod]
    for call in calls.values():  # asked once a module
        call()
    assert bound == [mod] and len(mod._GEOMETRY) == 1 and len(mod._PLANS) == 1
