"""Stand-ins for compiled Triton kernels, to run a generated cuda module's GPU launch paths on the
CPU: which launches take Triton's path, which the bound launcher, and with exactly which arguments.

`Kernel(real)` replaces a @triton.jit kernel of a module: indexing it by a grid gives a launch
that logs ("triton", grid, args, consts) and returns its `compiled` stand-in. That one's `run`
logs ("bound", args); with `c_launcher=True` it is a CudaLauncher like Triton 3.6's, whose C
`launch` (which a replay calls itself) logs ("launch", args).
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import torch

# A generated attention module's SPLIT_BELOW for each path: always split, never split.
ATTENTION_PATHS = {"split": 1 << 62, "fused": 0}


class Param:
    def __init__(self, name, default=None):
        self.name, self.default = name, default


class CudaLauncher:
    """Stands in for Triton 3.6's launcher object (its Python __call__ and its C `launch`)."""

    global_scratch_size = profile_scratch_size = 0
    launch_cooperative_grid, launch_pdl = 0, 1

    def __init__(self, log):
        self.log = log

    def __call__(self, *a):
        self.log.append(("bound", a))

    def launch(self, *a):
        self.log.append(("launch", a))


class Compiled:
    function, packed_metadata = "fn", "meta"

    def __init__(self, log, c_launcher):
        self.log = log
        self.run = CudaLauncher(log) if c_launcher else self._run

    def _run(self, *a):
        self.log.append(("bound", a))


class Kernel:
    def __init__(self, real, c_launcher=False, ptx=False):
        fn = getattr(real, "fn", real)  # the interpreter's InterpretedFunction wraps the Python function
        self.params = [Param(n, None if p.default is p.empty else p.default)
                       for n, p in inspect.signature(fn).parameters.items()]
        self.log = []
        self.compiled = Compiled(self.log, c_launcher)
        self.ptx = ptx

    def __getitem__(self, grid):
        def launch(*args, **consts):
            self.log.append(("triton", grid, args, consts))
            if self.ptx:
                _compiled_as(self.compiled, self.params, args)
            return self.compiled

        return launch


def _compiled_as(compiled, params, args):
    """Give `compiled` what a replay described for C++ reads of a Triton-compiled kernel (fast_route.py
    `_described`): its signature as Triton specializes these arguments (an integer 1 a constexpr),
    its PTX entry's parameters, its metadata and a function handle."""
    sig, ptx = {}, []
    for i, p in enumerate(params):
        a = args[i] if i < len(args) else None
        if isinstance(a, torch.Tensor):
            sig[p.name], kind = "*fp32", "u64"
        elif a.__class__ is int and a != 1:
            sig[p.name], kind = ("i32", "u32") if -(2**31) <= a < 2**31 else ("i64", "u64")
        elif a.__class__ is float:
            sig[p.name], kind = "fp32", "f32"
        else:
            sig[p.name], kind = "constexpr", None
        if kind is not None:
            ptx.append(f"\t.param .{kind} k_param_{len(ptx)}")
    compiled.src = SimpleNamespace(signature=sig)
    compiled.asm = {"ptx": ".visible .entry k(\n" + ",\n".join(ptx) + "\n)\n{\n"}
    compiled.metadata = SimpleNamespace(num_warps=4, shared=0, num_ctas=1)
    compiled.function = 1000 + len(params)
    if isinstance(compiled.run, CudaLauncher):
        compiled.run.launch_pdl = 0  # (C++ launches no programmatic dependent launch)


def gpu_like(mod, monkeypatch, **more):
    """`mod` as on a GPU: not interpreting, device 0, stream 7, no launch hooks, CPU tensors
    standing for device ones (`more`: other module globals to replace, a device check say)."""
    for name, value in (("_INTERPRET", False), ("_raw_stream", lambda device: 7), *more.items()):
        monkeypatch.setattr(mod, name, value)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    mod._BOUND.clear()
    return mod


class FastReplay:
    """Stands in for fast_route's binding (a module's `_FAST`): declines every replay (C++ has no
    plan, so the module's Python path serves), keeps what is asked and handed over."""

    def __init__(self):
        self.asked, self.stored, self.families = [], [], []  # (run id, args); (run, args, plan); family

    def replay(self, run_id, args):
        self.asked.append((run_id, args))

    def store(self, run, args, plan, family=None):
        self.stored.append((run, args, plan))
        self.families.append(family)

