"""The mode's replayable routes dispatched in C++ (redgen/runtime/fast_route.py, csrc/fast_route.cpp).

On CPU under the interpreter the C++ kernel keys every call, serves a repeated signature from
its plan (a Python replay here: the interpreter's launches are Python) and hands the rest to
the mode's Python kernel as torch would. Checked: served calls give the Python route's bits and
skip the adapter; a knob set after a plan was recorded, a call from inside a fallback, a route
turned off, a failed build all take the Python route; errors and dtype arguments cross the
boundary intact; and the description of a recorded launch as C++ launches it (GPU plans:
pointers, integers, fp32 bits, Triton's scratch pointers) from stand-in compiled kernels.
"""

from __future__ import annotations

import os

os.environ["TRITON_INTERPRET"] = "1"

import importlib  # noqa: E402
import re  # noqa: E402
import struct  # noqa: E402
import warnings  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

import redgen  # noqa: E402
from redgen.errors import NotCovered  # noqa: E402
from redgen.runtime import fast_route, mode  # noqa: E402
from redgen.runtime.loader import load  # noqa: E402

needs_ext = pytest.mark.skipif(fast_route.load() is None, reason=f"no C++ route here: {fast_route.status()}")


def _x(*shape, seed=0, dtype=torch.float32):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


def _hits(aten: str) -> int:
    return fast_route.hits().get(aten, 0)


@needs_ext
def test_a_repeated_signature_is_served_in_cpp_with_the_python_routes_bits(adapter_calls, monkeypatch):
    x, y = _x(6, 50), _x(6, 50, seed=1)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        assert fast_route.status() == "on"
        assert mode._STATE.routers  # mean.dim's kernel at the CPU key is C++
        h, n = _hits("mean.dim"), mode.call_counts()["mean.dim"]
        first = torch.mean(x, 1)
        assert _hits("mean.dim") == h and adapter_calls[0] == 1  # recorded by the Python route
        assert fast_route.plans() == (0, 1)  # the interpreter's plan: a Python replay
        served = torch.mean(y, 1)
        assert _hits("mean.dim") == h + 1 and adapter_calls[0] == 1  # no adapter, no Python kernel
        assert mode.call_counts()["mean.dim"] == n + 2  # served calls count as routed
        assert torch.equal(first, load("mean")(x, 1)) and torch.equal(served, load("mean")(y, 1))
        assert torch.equal(torch.mean(y[:2], 1), served[:2])  # batch invariant through the C++ route
    assert fast_route.plans() == (0, 0)  # the last disable drops them
    monkeypatch.setenv("REDGEN_FAST_ROUTE", "0")
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        assert fast_route.status() == "off (REDGEN_FAST_ROUTE=0)"
        h = _hits("mean.dim")
        torch.mean(x, 1)
        python = torch.mean(y, 1)
        assert _hits("mean.dim") == h  # the Python kernel serves every call
    assert torch.equal(python, served)


@needs_ext
def test_a_knob_set_after_recording_makes_the_plan_stale(monkeypatch):
    mod = importlib.import_module(load("mean").__module__)
    x = _x(3, 4000)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        torch.mean(x, 1)
        h = _hits("mean.dim")
        torch.mean(x, 1)
        assert _hits("mean.dim") == h + 1
        monkeypatch.setattr(mod, "SPLIT_BELOW", 1 << 40)  # every row count takes the split path now
        got = torch.mean(x, 1)
        assert _hits("mean.dim") == h + 1  # not served: the Python route checked the knobs again
        assert torch.equal(got, load("mean")(x, 1))
        torch.mean(x, 1)
        assert _hits("mean.dim") == h + 2  # recorded again with the new knob, served again


@needs_ext
def test_no_plan_serves_inside_a_fallback():
    x = _x(4, 30)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        torch.mean(x, 1)
        h = _hits("mean.dim")
        fast_route.set_in_fallback(True)
        try:
            got = torch.mean(x, 1)
        finally:
            fast_route.set_in_fallback(False)
        assert _hits("mean.dim") == h
        assert torch.equal(got, load("mean")(x, 1))


@needs_ext
def test_errors_and_fallbacks_cross_the_cpp_kernel_intact():
    x = _x(4, 30, dtype=torch.float64)
    own = torch.mean(x, 1)
    with torch.no_grad(), redgen.batch_invariant(strict=True), pytest.raises(NotCovered, match="mean.dim"):
        torch.mean(x, 1)  # float64: not covered, and strict raises redgen's own error through C++
    with torch.no_grad(), redgen.batch_invariant(), warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert torch.equal(torch.mean(x, 1), own)  # torch's own kernel, with the mode's warning
        assert any("falls back" in str(w.message) for w in seen)
        with pytest.raises(ValueError, match="mean: dim 5 is out of range for a 2-d tensor"):
            torch.mean(_x(4, 30), 5)  # the launcher's own error, its type kept through C++


@needs_ext
def test_a_keyword_only_dtype_reaches_python_as_a_dtype():
    x = _x(3, 100, 2, dtype=torch.bfloat16)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        got = torch.mean(x, 1, dtype=torch.float32)  # strict: an int dtype would fall back and raise
        again = torch.mean(x, 1, dtype=torch.float32)
        out = torch.empty(0, dtype=torch.float32)
        torch.mean(x, 1, dtype=torch.float32, out=out)
    want = load("mean")(x, 1, dtype=torch.float32)
    assert torch.equal(got, want) and torch.equal(again, want) and torch.equal(out, want)


def test_a_failed_build_leaves_the_python_route_and_says_why(monkeypatch):
    import torch.utils.cpp_extension as ext

    def broken(**_):
        raise RuntimeError("Ninja is required to load C++ extensions\nmore")

    monkeypatch.setattr(fast_route, "_EXT", None)
    monkeypatch.setattr(fast_route, "_WHY", None)
    monkeypatch.setattr(ext, "load", broken)
    assert fast_route.load() is None
    assert fast_route.status() == ("could not build csrc/fast_route.cpp "
                                   "(RuntimeError: Ninja is required to load C++ extensions)")
    x = _x(3, 20)
    with torch.no_grad(), redgen.batch_invariant(strict=True):
        assert fast_route.router("CPU") is None
        assert torch.equal(torch.mean(x, 1), load("mean")(x, 1))
        assert fast_route.plans() == (0, 0)


# --- a recorded launch as C++ launches it (GPU plans), from stand-in compiled kernels ---
_PTX = """.version 8.4
.visible .entry k(
\t.param .u64 .ptr .global .align 1 k_param_0,
\t.param .u64 .ptr .global .align 1 k_param_1,
\t.param .u32 k_param_2,
\t.param .u64 k_param_3,
\t.param .f32 k_param_4,
\t.param .u64 .ptr .global .align 1 k_param_5,
\t.param .u64 .ptr .global .align 1 k_param_6
)
{
"""
_SIG = {"x": "*bf16", "out": "*fp32", "n": "i32", "stride": "i64", "eps": "fp32", "ONE": "constexpr",
        "BLOCK": "constexpr"}


def _stand_in(sig=_SIG, ptx=_PTX, **meta):
    kernel = SimpleNamespace(params=[SimpleNamespace(name=n) for n in sig])
    metadata = SimpleNamespace(num_warps=4, shared=1024, num_ctas=1)
    metadata.__dict__.update(meta)
    compiled = SimpleNamespace(src=SimpleNamespace(signature=dict(sig)), asm={"ptx": ptx}, metadata=metadata)
    return kernel, compiled


def _f32(v):
    return struct.unpack("<i", struct.pack("<f", v))[0]


def test_a_launch_is_described_parameter_by_parameter():
    kernel, compiled = _stand_in()
    values = (None, None, -3, 2**40, 0.5, 1, 128)
    slots = ((0, 0, 1), (1, 1, 0))  # x: the launcher's argument 1; out: output 0
    got = fast_route._params(kernel, compiled, values, slots, places=(-1, 2))
    assert got == ((8, 0, 2), (8, 1, 0), (4, -1, -3), (8, -1, 2**40), (4, -1, _f32(0.5)), (8, -1, 0), (8, -1, 0))
    # places None: the launcher's arguments are the call's own
    assert fast_route._params(kernel, compiled, values, slots, places=None)[0] == (8, 0, 1)
    # a u64 past 2**63 keeps its bits as a signed 64-bit value
    sig = {**_SIG, "stride": "u64"}
    k2, c2 = _stand_in(sig)
    assert fast_route._params(k2, c2, (None, None, 1, 2**64 - 5, 0.5, 1, 8), slots, None)[3] == (8, -1, -5)


def test_a_compiled_kernels_ptx_is_parsed_once(monkeypatch):
    kernel, compiled = _stand_in()
    parsed = []
    real = fast_route._ptx_params
    monkeypatch.setattr(fast_route, "_ptx_params", lambda c: parsed.append(c) or real(c))
    slots = ((0, 0, 1), (1, 1, 0))
    first = fast_route._params(kernel, compiled, (None, None, -3, 7, 0.5, 1, 128), slots, None)
    second = fast_route._params(kernel, compiled, (None, None, 9, 7, 0.25, 1, 128), slots, None)
    assert len(parsed) == 1
    assert first[2] == (4, -1, -3) and second[2] == (4, -1, 9) and second[4] == (4, -1, _f32(0.25))
    # the values' types are still checked on each call: a float for an integer, a string for a float
    assert fast_route._params(kernel, compiled, (None, None, 1.5, 7, 0.5, 1, 128), slots, None) is None
    assert fast_route._params(kernel, compiled, (None, None, 1, 7, "0.5", 1, 128), slots, None) is None
    # another compiled kernel (another specialization) is parsed on its own
    other = _stand_in(ptx=_PTX.replace(".param .f32", ".param .b16"))[1]
    assert fast_route._params(kernel, other, (None, None, -3, 7, 0.5, 1, 128), slots, None) is None
    assert len(parsed) == 2


@pytest.mark.parametrize("why", ["ptx_short", "ptx_type", "fp16_scalar", "places_made", "names", "no_ptx"])
def test_a_launch_c_cannot_take_is_left_to_python(why):
    sig, ptx, places = dict(_SIG), _PTX, (-1, 2)
    if why == "ptx_short":  # fewer PTX parameters than the signature's
        ptx = _PTX.replace("\t.param .f32 k_param_4,\n", "")
    elif why == "ptx_type":
        ptx = _PTX.replace(".param .f32", ".param .b16")
    elif why == "fp16_scalar":
        sig["eps"] = "fp16"
    elif why == "places_made":  # the launcher's tensor is one the adapter made
        places = (-1, -1)
    elif why == "no_ptx":
        ptx = "no entry here"
    kernel, compiled = _stand_in(sig, ptx)
    if why == "names":
        kernel.params.reverse()
    values = (None, None, -3, 7, 0.5, 1, 128)
    assert fast_route._params(kernel, compiled, values, ((0, 0, 1), (1, 1, 0)), places) is None


def test_a_plan_with_hooks_cooperation_or_clusters_is_left_to_python():
    kernel, compiled = _stand_in()
    template, tail = (None, None, 4, 8, 0.5), (1, 128)
    bound = (compiled, None, 77, None, (3, 1, 1), tail, ("launch", False, False))
    launch = (kernel, (3,), template, ((0, 0, 0), (1, 1, 0)), {}, bound)
    outs = (((3,), (1,), torch.float32),)
    device = SimpleNamespace(type="cuda", index=0)
    plan = (False, 0, device, outs, (), (launch,), False, ("direct",))
    quiet = SimpleNamespace(_hooks=lambda: (None, None))
    assert fast_route._launches(quiet, plan, None) == (
        "launch", 0, outs, (), ((77, (3, 1, 1), 128, 1024,
                                 ((8, 0, 0), (8, 1, 0), (4, -1, 4), (8, -1, 8), (4, -1, _f32(0.5)), (8, -1, 0),
                                  (8, -1, 0))),), 0)
    assert fast_route._launches(SimpleNamespace(_hooks=lambda: (print, None)), plan, None) is None
    coop = (kernel, (3,), template, launch[3], {}, (*bound[:6], ("launch", True, False)))
    assert fast_route._launches(quiet, (*plan[:5], (coop,), False, ("direct",)), None) is None
    compiled.metadata.num_ctas = 2
    assert fast_route._launches(quiet, plan, None) is None
    assert fast_route._launches(quiet, (*plan[:7], None), None) is None  # no C launcher recorded


# --- a generated launcher's own calls (`_FAST`, templates/cuda/replay.py.j2) ---
def _direct_plan():
    kernel, compiled = _stand_in()
    bound = (compiled, None, 77, None, (3, 1, 1), (1, 128), ("launch", False, False))
    launch = (kernel, (3,), (None, None, 4, 8, 0.5), ((0, 0, 0), (1, 1, 0)), {}, bound)
    outs = (((3,), (1,), torch.float32),)
    return (False, 0, SimpleNamespace(type="cuda", index=0), outs, (), (launch,), False, ("direct",))


@needs_ext
def test_a_launchers_plan_is_handed_to_cpp_and_its_module_watched():
    mod = importlib.import_module(load("mean").__module__)
    stand_in = SimpleNamespace(_hooks=lambda: (None, None))
    bound = fast_route._Bound(stand_in, fast_route.load())
    x = torch.zeros(3)

    def run(*a):
        return None

    before = fast_route.plans()
    bound.mod = mod  # watched on store: its knobs' names then make every plan stale when set
    mod_hooks = mod._hooks
    try:
        mod._hooks = stand_in._hooks
        bound.store(run, (x, 4), _direct_plan())
    finally:
        mod._hooks = mod_hooks
    try:
        assert fast_route.plans() == (before[0] + 1, before[1])
        assert mod._ON_KNOB is fast_route._bump and "SPLIT_BELOW" in mod._KNOB_NAMES
        gen = mod._KNOB_GEN
        mod.SPLIT_BELOW = mod.SPLIT_BELOW  # a knob set: C++'s plans go stale
        assert mod._KNOB_GEN == gen + 1
        # no CUDA driver here: C++ declines and the launcher's Python path serves
        assert bound.replay(id(run), (x, 4)) is None
        assert bound.replay(id(run), ([x], 4)) is None  # an argument with no signature
        from torch._subclasses.fake_tensor import FakeTensorMode

        with FakeTensorMode():
            fake = torch.empty(3)
        assert bound.replay(id(run), (fake, 4)) is None  # a tensor with no data: declined, never raised
        # a plan C++ cannot launch is described once, however often its calls hand it over
        described = []
        real = fast_route._described
        fast_route._described = lambda plan, places: described.append(plan)
        try:
            refused = _direct_plan()
            for _ in range(3):
                bound.store(run, (x, 5), refused)
        finally:
            fast_route._described = real
        assert described == [refused] and fast_route.plans() == (before[0] + 1, before[1])
    finally:
        fast_route.forget()


def test_bind_leaves_interpreted_and_foreign_modules_to_python():
    mod = importlib.import_module(load("mean").__module__)
    assert mod._FAST is None and fast_route.bind(mod) is False  # the interpreter: Python launches
    assert fast_route.bind(SimpleNamespace()) is False  # no `_FAST` hook (a module built before it)


@pytest.mark.parametrize("value", ["off", "false", "", " 0"])
def test_a_flag_other_than_0_or_1_is_refused_with_its_value(value, monkeypatch):
    """A misspelt REDGEN_FAST_ROUTE would otherwise leave the C++ route on without a word."""
    monkeypatch.setenv("REDGEN_FAST_ROUTE", value)
    with pytest.raises(ValueError, match=r"^REDGEN_FAST_ROUTE=" + re.escape(repr(value)) + ": set it to 0"):
        fast_route.status()
    with pytest.raises(ValueError, match="REDGEN_FAST_ROUTE="), redgen.batch_invariant():
        pass
    assert not mode.is_enabled()  # the failed enable left nothing installed
