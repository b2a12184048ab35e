"""Issue 12: a generated cuda launcher binds each launch signature once (`_go`).

A GPU is needed to run the bound path for real (benchmarks/launch_paths.py checks it there:
bitwise equal to Triton's own launch, CUDA-graph capture, host time); here the binding
logic runs against a recording stand-in for a Triton kernel, in a module built from the
current templates: which calls take Triton's path, which the bound launcher, and with
exactly which arguments.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch

from redgen.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    assert main(["build", str(ROOT / "specs" / "mean.red"), "--target", "cuda", "--out", str(out),
                 "--no-empirical", "-q"]) == 0
    spec = importlib.util.spec_from_file_location("bound_mean", out / "cuda" / "mean.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


class _Param:
    def __init__(self, name, default=None):
        self.name, self.default = name, default


class _Compiled:
    function, packed_metadata = "fn", "meta"

    def __init__(self, log):
        self.log = log

    def run(self, *a):
        self.log.append(("bound", a))

    def launch_metadata(self, grid, stream, *args):
        return ("metadata", grid, stream)


class _Kernel:
    """Records Triton-path launches; its compiled stand-in records bound ones."""

    def __init__(self, names):
        self.params = [_Param(n) for n in names] + [_Param("BLOCK"), _Param("TAIL", 9)]
        self.log = []
        self.compiled = _Compiled(self.log)

    def __getitem__(self, grid):
        def launch(*args, **consts):
            self.log.append(("triton", grid, args, consts))
            return self.compiled

        return launch


@pytest.fixture
def gpu_like(mod, monkeypatch):
    """The module as on a GPU: not interpreting, device 0, stream 7, no launch hooks."""
    monkeypatch.setattr(mod, "_INTERPRET", False)
    monkeypatch.setattr(mod, "_raw_stream", lambda device: 7)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    mod._BOUND.clear()
    return mod


def test_a_repeated_signature_takes_the_bound_launcher_with_the_same_arguments(gpu_like):
    k = _Kernel(["x", "n", "y"])
    x, y = torch.zeros(8), torch.zeros(8)
    gpu_like._go(k, (4, 2), (x, 5, y), {"BLOCK": 16, "num_warps": 4})
    assert [e[0] for e in k.log] == ["triton"]
    x2, y2 = torch.ones(8), torch.ones(8)
    gpu_like._go(k, (4, 2), (x2, 5, y2), {"BLOCK": 16, "num_warps": 4})
    kind, args = k.log[-1]
    assert kind == "bound"
    # grid padded to 3 axes, the stream, the compiled function and metadata, no hooks, then every
    # parameter in order: the call's own tensors, the constexpr by name, a default where absent
    assert args[:9] == (4, 2, 1, 7, "fn", "meta", None, None, None)
    assert args[9] is x2 and args[10] == 5 and args[11] is y2 and args[12:] == (16, 9)


@pytest.mark.parametrize("change", ["int", "dtype", "alignment", "grid", "device"])
def test_whatever_triton_specializes_on_rebinds(gpu_like, monkeypatch, change):
    k = _Kernel(["x", "n"])
    x = torch.zeros(16)
    gpu_like._go(k, (4,), (x, 5), {"BLOCK": 16})
    args, grid = (x, 5), (4,)
    if change == "int":
        args = (x, 16)  # a multiple of 16: Triton's "D" specialization
    elif change == "dtype":
        args = (torch.zeros(16, dtype=torch.float16), 5)
    elif change == "alignment":
        args = (x[1:], 5)  # 4 bytes past a 16-byte boundary
    elif change == "grid":
        grid = (5,)
    else:
        monkeypatch.setattr(torch.cuda, "current_device", lambda: 1)
    gpu_like._go(k, grid, args, {"BLOCK": 16})
    assert [e[0] for e in k.log] == ["triton", "triton"]
    gpu_like._go(k, grid, args, {"BLOCK": 16})
    assert [e[0] for e in k.log] == ["triton", "triton", "bound"]


@pytest.mark.parametrize("value", [7, 2**20 + 3, -5])
def test_an_int_triton_does_not_specialize_on_reuses_the_binding_with_its_own_value(gpu_like, value):
    """Attention's key length grows every decode step: its launch must not rebind each time."""
    k = _Kernel(["x", "n"])
    x = torch.zeros(16)
    gpu_like._go(k, (4,), (x, 5), {"BLOCK": 16})
    gpu_like._go(k, (4,), (x, value), {"BLOCK": 16})
    assert [e[0] for e in k.log] == ["triton", "bound"]
    assert k.log[-1][1][10] == value


@pytest.mark.parametrize("first, second", [(5, 1), (5, 2**31), (2**31, 2**63), (1.0, 1), (True, 1), (0.5, 2.5)])
def test_each_specialization_class_binds_apart(gpu_like, first, second):
    """1, multiples of 16, i32 / i64 / u64, float vs int vs bool: apart; two floats: together."""
    k = _Kernel(["x", "n"])
    x = torch.zeros(16)
    gpu_like._go(k, (4,), (x, first), {"BLOCK": 16})
    gpu_like._go(k, (4,), (x, second), {"BLOCK": 16})
    together = isinstance(first, float) and isinstance(second, float)
    assert [e[0] for e in k.log] == ["triton", "bound" if together else "triton"]


def test_launch_hooks_are_called_as_triton_calls_them(gpu_like, monkeypatch):
    import triton

    k = _Kernel(["x"])
    x = torch.zeros(4)
    gpu_like._go(k, (1,), (x,), {"BLOCK": 2})
    hook = triton.knobs.runtime.launch_enter_hook
    monkeypatch.setattr(hook, "calls", [print])
    gpu_like._go(k, (1,), (x,), {"BLOCK": 2})
    args = k.log[-1][1]
    assert args[6] == ("metadata", (1,), 7) and args[7] is hook and args[8] is None


def test_the_interpreter_always_takes_tritons_path(mod, monkeypatch):
    monkeypatch.setattr(mod, "_INTERPRET", True)
    k = _Kernel(["x"])
    for _ in range(3):
        mod._go(k, (1,), (torch.zeros(4),), {"BLOCK": 2})
    assert [e[0] for e in k.log] == ["triton"] * 3
