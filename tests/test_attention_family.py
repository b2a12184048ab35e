"""Issue 12: a dense attention call's plan stands for the key lengths a decode meets next.

A decode step's key length grows by one, so its signature is new in every step's first layer.
The plan the cuda launcher hands to the C++ replay carries how it moves with the key length
(templates/cuda/attention.py.j2 `_family`, fast_route.py `_family`): C++ then makes a new key
length's plan itself (csrc/fast_route.cpp `from_family`). Checked here against stand-ins for
compiled kernels (as on a GPU; C++ builds the plan but has no driver to launch it): the plan C++
makes is the one the launcher's Python makes for that call, on both paths and layouts; a key
length whose integers Triton specializes otherwise, or a value length unlike the key's, gets
none; and what the mode's routes return moves with it only where the route names it.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch

from redgen.runtime import fast_route
from tests.stand_ins import ATTENTION_PATHS as PATHS
from tests.stand_ins import Kernel, gpu_like

needs_ext = pytest.mark.skipif(fast_route.load() is None, reason=f"no C++ route here: {fast_route.status()}")


@pytest.fixture
def mod(attention_mod):
    return attention_mod


def _step(lk, heads_first, lv=None, seed=0):
    """A decode step's [B, heads, L, D] tensors (read transposed in flash layout), its cache a fresh
    contiguous tensor (the strides move with the key length)."""
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(2, h, n, 16, generator=g) for h, n in ((4, 1), (2, lk), (2, lv or lk)))
    return (q, k, v) if heads_first else tuple(x.transpose(1, 2) for x in (q, k, v))


def _cuda(plan):
    # the stand-ins' tensors are CPU ones: the plan as a GPU's would read (device 0)
    return (*plan[:2], SimpleNamespace(type="cuda", index=0), *plan[3:])


class _Cpp:
    """The module's `_FAST` as fast_route._Bound is, on CPU tensors: every call goes to the
    launcher's Python (no driver to launch here), whose plans reach C++ with their family."""

    def __init__(self, ext):
        self.ext, self.plans, self.families = ext, [], []

    def replay(self, run_id, args):
        return None

    def store(self, run, args, plan, family=None):
        desc = fast_route._described(_cuda(plan), None)
        moved = None if family is None else fast_route._family(plan, None, family)
        self.plans.append(desc)
        self.families.append(moved)
        self.ext.store(id(run), args, (*desc, None, moved), bool(plan[0]), bool(plan[6]))


def _bound(mod, monkeypatch, path):
    """The module as on a GPU (stand-in kernels with their PTX entries), on `path` (split or fused),
    handing its plans to C++ through _Cpp: (the extension, the _Cpp, the run id C++ files them under)."""
    ext = fast_route.load()
    gpu_like(mod, monkeypatch, _check=lambda name, t, device_type: None, SPLIT_BELOW=PATHS[path])
    for name in ("_attn_fwd", "_attn_combine"):
        monkeypatch.setattr(mod, name, Kernel(getattr(mod, name), c_launcher=True, ptx=True))
    cpp = _Cpp(ext)
    monkeypatch.setattr(mod, "_FAST", cpp)
    return ext, cpp, id(mod._dense)


def _as_cpp(desc):
    """A description (fast_route._described) as csrc/fast_route.cpp `planned` reports the plan."""
    _, _, outs, work, launches, _ = desc
    at, offsets = 0, []
    for (n,), _, dtype in work:
        offsets.append(at)
        at += -(-n * torch.empty((), dtype=dtype).element_size() // 256) * 256
    return (tuple((s, st) for s, st, _ in outs), tuple(((n,), o) for ((n,), _, _), o in zip(work, offsets, strict=True)),
            tuple((grid, params) for _, grid, _, _, params in launches), ())


@needs_ext
@pytest.mark.parametrize("path,return_lse,heads_first",
                         [("split", False, False), ("split", True, True), ("fused", False, True), ("fused", True, False)])
def test_cpp_makes_a_new_key_lengths_plan_as_the_launcher_would(mod, monkeypatch, path, return_lse, heads_first):
    ext, cpp, run = _bound(mod, monkeypatch, path)
    try:
        def call(lk, **kw):
            q, k, v = _step(lk, heads_first, **kw)
            args = (q, k, v, True, None, return_lse, heads_first)
            return args, lambda: mod.attention(q, k, v, causal=True, return_lse=return_lse, heads_first=heads_first)

        args, first = call(300)
        assert ext.planned(run, args) is None  # nothing recorded yet
        first()
        assert cpp.families[0] is not None
        # 301-511: another chunk count (2, 2, 3; split: the partials and the grid move), the same
        # specialization of every moving integer (none 1 or a multiple of 16, all 32-bit)
        for lk in (301, 517, 779):
            args, python = call(lk)
            made = ext.planned(run, args)  # C++'s, from the family of the plan of 300
            assert made is not None
            python()  # the launcher's own plan for this call, handed over
            assert made == _as_cpp(cpp.plans[-1]), lk
            assert ext.planned(run, args) == made  # stored under its own signature
        # a key length Triton specializes otherwise (a multiple of 16): a plan of its own kind
        args, python = call(320)
        assert ext.planned(run, args) is None
        # a value length unlike the key's: the launcher's checks raise it, C++ makes no plan
        args, _ = call(303, lv=305)
        assert ext.planned(run, args) is None
    finally:
        fast_route.forget()


@needs_ext
def test_a_knob_set_lets_a_later_family_serve_a_signature_seen_before(mod, monkeypatch):
    """A knob set (SPLIT_BELOW: the split path, then the fused one) makes every plan stale, the plans
    of signatures seen before too: those then take the family stored since, not Python (run 252: the
    fused path's key lengths, each seen on the split path before, were handed over from Python)."""
    ext, cpp, run = _bound(mod, monkeypatch, "split")
    try:
        def call(lk):
            q, k, v = _step(lk, True)
            return (q, k, v, True, None, False, True), lambda: mod.attention(q, k, v, causal=True, heads_first=True)

        _, first = call(300)
        first()
        seen, python = call(517)
        python()  # 517's own plan (split), under its signature
        split = ext.planned(run, seen)
        assert split is not None and len(split[2]) == 2  # two launches
        ext.bump()  # as the module's watch does on the knob's setting
        monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS["fused"])
        assert ext.planned(run, seen) is None  # stale, and no family stored since
        _, first = call(301)
        first()  # the fused path's first plan, with its family
        made = ext.planned(run, seen)
        assert made is not None and len(made[2]) == 1  # the fused family's member: one launch
        call(517)[1]()
        assert made == _as_cpp(cpp.plans[-1])  # the launcher's own plan for 517 now
    finally:
        fast_route.forget()


def test_the_family_names_the_call_integers_and_a_route_names_its_returns(mod, monkeypatch):
    """The family's moving arguments are where `_dense` puts the key length, the K/V strides and the
    chunk count; a route's integer returns move only where `lengths` names them."""
    gpu_like(mod, monkeypatch, _check=lambda name, t, device_type: None, SPLIT_BELOW=PATHS["split"])
    for name in ("_attn_fwd", "_attn_combine"):
        monkeypatch.setattr(mod, name, Kernel(getattr(mod, name), c_launcher=True, ptx=True))
    probe = []
    monkeypatch.setattr(mod, "_PROBE", probe)
    q, k, v = _step(300, True)
    mod.attention(q, k, v, causal=True, return_lse=True, heads_first=True)
    (plan, _, _, _, family), = probe
    quantities, checks, moves, grids, work = family
    values = [k.stride(0), k.stride(1), v.stride(0), v.stride(1), 300, 2, 300]
    assert [(k, v)[a - 1].shape[d] if kind == 0 else (k, v)[a - 1].stride(d) for a, kind, d, _ in quantities][:5] \
        == values[:5] and checks == ((4, 6),) and grids == ((0, 2, 5),) and work == ((0, 5, 2 * 4 * 18),)
    launches = plan[5]
    for (_, _, template, *_), m in zip(launches, moves, strict=True):
        assert all(template[pos] == values[qi] for pos, qi in m)
    # the mode's places: the aten call's query, key and value are its arguments 0-2
    places = (0, 1, 2, -1, -1, -1, -1)
    rets = ((0, 0), (1, 1, (2, 4, 1, 1), (4, 1, 1, 1), 0), (2, "held"), (3, 1), (3, 300))
    moved = fast_route._family(plan, places, family, rets, ((3, 0, 2), (4, 1, 2)))
    assert moved is not None and moved[5] == ((4, 4),)  # the key's length; the query's is in the key
    assert fast_route._family(plan, places, family, rets, ()) is None  # an integer return not named
    assert fast_route._family(plan, (0, -1, 2, -1, -1, -1, -1), family) is None  # k a tensor the adapter made
    # what the mode's C++ route is handed for a recorded signature (describe): the launches, the
    # returns, then the family
    quiet = SimpleNamespace(_hooks=lambda: (None, None))
    rr = SimpleNamespace(key=lambda a, kw: "sig", plans={"sig": (quiet, _cuda(plan), places, None, rets, family)},
                         mods=(), lengths=((3, 0, 2), (4, 1, 2)))
    desc = fast_route.describe(rr, (q, k, v), {})
    assert desc[:6] == fast_route._described(_cuda(plan), places) and desc[6] == rets and desc[7] == moved
    rr.plans["sig"] = (quiet, _cuda(plan), places, None, rets, None)  # no family: the plan of its signature alone
    assert fast_route.describe(rr, (q, k, v), {}) == (*desc[:6], rets)


@needs_ext
def test_cpp_moves_a_returned_key_length(mod, monkeypatch):
    """A route's returned key length (flash's and cudnn's max_k, `Route.lengths`) is the call's own in
    the plan C++ makes from the family; the query's length, in the key, stays."""
    ext = fast_route.load()
    gpu_like(mod, monkeypatch, _check=lambda name, t, device_type: None, SPLIT_BELOW=PATHS["split"])
    for name in ("_attn_fwd", "_attn_combine"):
        monkeypatch.setattr(mod, name, Kernel(getattr(mod, name), c_launcher=True, ptx=True))
    probe = []
    monkeypatch.setattr(mod, "_PROBE", probe)
    q, k, v = _step(300, True)
    mod.attention(q, k, v, causal=True, return_lse=True, heads_first=True)
    (plan, args, _, _, family), = probe
    rets = ((0, 0), (3, 1), (3, 300))  # an output, the query's length, the key's
    moved = fast_route._family(plan, None, family, rets, ((1, 0, 2), (2, 1, 2)))
    assert moved[5] == ((2, 4),)

    def run():
        return None

    try:
        ext.store(id(run), args, (*fast_route._described(_cuda(plan), None), rets, moved), False, True)
        for lk in (301, 517):
            q, k, v = _step(lk, True)
            made = ext.planned(id(run), (q, k, v, True, None, True, True))
            assert made is not None and made[3] == ((0, 0), (3, 1), (3, lk))
    finally:
        fast_route.forget()
