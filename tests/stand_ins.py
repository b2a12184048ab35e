"""Stand-ins for compiled Triton kernels, to run a generated cuda module's GPU launch paths on the
CPU: which launches take Triton's path, which the bound launcher, and with exactly which arguments.

`Kernel(real)` replaces a @triton.jit kernel of a module: indexing it by a grid gives a launch
that logs ("triton", grid, args, consts) and returns its `compiled` stand-in. That one's `run`
logs ("bound", args); with `c_launcher=True` it is a CudaLauncher like Triton 3.6's, whose C
`launch` (which a replay calls itself) logs ("launch", args).
"""

from __future__ import annotations

import inspect

import torch


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
    def __init__(self, real, c_launcher=False):
        fn = getattr(real, "fn", real)  # the interpreter's InterpretedFunction wraps the Python function
        self.params = [Param(n, None if p.default is p.empty else p.default)
                       for n, p in inspect.signature(fn).parameters.items()]
        self.log = []
        self.compiled = Compiled(self.log, c_launcher)

    def __getitem__(self, grid):
        def launch(*args, **consts):
            self.log.append(("triton", grid, args, consts))
            return self.compiled

        return launch


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
        self.asked, self.stored = [], []  # (run id, args); (run, args, plan)

    def replay(self, run_id, args):
        self.asked.append((run_id, args))

    def store(self, run, args, plan):
        self.stored.append((run, args, plan))

