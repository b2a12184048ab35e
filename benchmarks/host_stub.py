"""Host time of the generated launchers' Python, on any machine: kernels replaced by stand-ins.

    TRITON_INTERPRET=1 PYTHONPATH=. python benchmarks/host_stub.py [--profile NAME] [--calls N]

A GPU call's host time is the launcher's Python plus Triton's compiled launcher (C) plus
torch's allocations. This measures the Python part without a GPU: every @triton.jit kernel
of the generated cuda modules is replaced by a stand-in whose "compiled kernel" launcher is
a no-op, the modules are told they are not interpreting (so they take the GPU's binding and
replay paths), and CPU tensors stand for device tensors. The outputs are never computed:
this times host code only, to compare two versions of it on one machine (benchmarks/
host_time.py measures the real calls on a GPU). Each row: the direct call, the torch op
inside redgen.batch_invariant() (the mode's adapter and torch's dispatch into it), and the
torch op's own CPU time for scale (real arithmetic there: not a host-only figure).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import sys
import time
from pathlib import Path

os.environ.setdefault("TRITON_INTERPRET", "1")  # the mode routes the CPU dispatch key only then

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class CudaLauncher:
    """Stands in for Triton 3.6's launcher object (the replay calls its C `launch` directly)."""

    global_scratch_size = profile_scratch_size = 0
    launch_cooperative_grid = launch_pdl = False

    def __call__(self, *a):
        return None

    @staticmethod
    def launch(*a):
        return None


class _Compiled:
    function, packed_metadata = "fn", "meta"
    run = CudaLauncher()

    @staticmethod
    def launch_metadata(*a):
        return None


class _Param:
    def __init__(self, name, default):
        self.name, self.default = name, default


class _Kernel:
    """Stands in for a @triton.jit kernel: indexing by a grid gives a launch returning _Compiled."""

    def __init__(self, real):
        import inspect

        fn = getattr(real, "fn", real)
        self.params = [_Param(n, None if p.default is p.empty else p.default)
                       for n, p in inspect.signature(fn).parameters.items()]
        self.arg_names = [p.name for p in self.params]

    def __getitem__(self, grid):
        return lambda *a, **k: _Compiled


def _stub(op: str):
    from redgen.runtime.loader import load

    return _stub_module(importlib.import_module(load(op, "cuda").__module__))


def _stub_module(mod):
    if getattr(mod, "_STUBBED", False):
        return mod
    mod._INTERPRET = False
    mod._raw_stream = lambda device: 0
    # the device checks take the CPU tensors that stand for device ones (the same work)
    if hasattr(mod, "_check_tensor"):
        chk = mod._check_tensor
        mod._check_tensor = lambda op_, name, t, dtypes, device_type: chk(op_, name, t, dtypes, "cpu")
    if hasattr(mod, "_check"):
        chk2 = mod._check
        mod._check = lambda name, t, device_type: chk2(name, t, "cpu")
    if hasattr(mod, "_is_short"):
        # a `short` op's rows go to its short op as on a GPU (softmax 8 x 32000: softmax_held's launch)
        short = mod._is_short
        mod._is_short = lambda op_, x, dim, keepdim, before, after, device_type, dtype: short(
            op_, x, dim, keepdim, before, after, "cpu", dtype)
        _stub_module(mod._short_module())
    for name in dir(mod):
        v = getattr(mod, name)
        if type(v).__name__ in ("JITFunction", "InterpretedFunction"):  # device functions too: nothing compiles
            setattr(mod, name, _Kernel(v))
    mod._STUBBED = True
    torch.cuda.current_device = lambda: 0  # a GPU's answer (a CPU torch has no _cuda_getDevice; 0.15 us there)
    return mod


def _us(fn, n: int = 2000, reps: int = 5) -> float:
    for _ in range(min(n, 50)):
        fn()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
    return best


def cases():
    f = torch.nn.functional
    bf = torch.bfloat16
    g = torch.Generator().manual_seed(0)

    def rnd(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g).to(dtype)

    x64, w4k, b4k = rnd(64, 4096), rnd(4096), rnd(4096)
    xb = rnd(8, 1, 2048, dtype=bf)
    a8, wt = rnd(8, 2048, dtype=bf), rnd(2048, 2048, dtype=bf)
    s32 = rnd(8, 32000, dtype=bf)
    # a decode step: 8 sequences, 16 query heads over 4 KV heads of 128, 700 cached keys
    q, k, v = rnd(8, 16, 1, 128, dtype=bf), rnd(8, 4, 700, 128, dtype=bf), rnd(8, 4, 700, 128, dtype=bf)
    return [
        ("mean 64x4096 f32", "mean", lambda m: m.mean(x64, -1), lambda: torch.mean(x64, -1)),
        ("mean 8x1x2048 bf16 keepdim", "mean", lambda m: m.mean(xb, -1, True), lambda: torch.mean(xb, -1, True)),
        # (no rms_norm row: on the CPU F.rms_norm decomposes into arithmetic around a routed mean)
        ("layer_norm 64x4096 f32", "layer_norm", lambda m: m.layer_norm(x64, w4k, b4k, eps=1e-5),
         lambda: f.layer_norm(x64, [4096], w4k, b4k, 1e-5)),
        ("softmax 8x32000 bf16", "softmax", lambda m: m.softmax(s32, -1), lambda: torch.softmax(s32, -1)),
        ("argmax 8x32000 bf16", "argmax", lambda m: m.argmax(s32, -1), lambda: torch.argmax(s32, -1)),
        ("matmul 8x2048x2048 bf16", "matmul", lambda m: m.matmul(a8, wt.t()), lambda: f.linear(a8, wt)),
        ("attention decode 8x16/4x700 bf16", "attention",
         lambda m: m.attention(q, k, v, causal=False, heads_first=True),
         lambda: f.scaled_dot_product_attention(q, k, v, enable_gqa=True)),
    ]


def main() -> None:
    import redgen

    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", default=None, help="cProfile the mode call of the row whose name starts so")
    ap.add_argument("--calls", type=int, default=2000, help="calls per timing (tests pass a few)")
    opts = ap.parse_args()
    rows = []
    for name, op, direct, ref in cases():
        mod = _stub(op)
        d = _us(lambda mod=mod, direct=direct: direct(mod), n=opts.calls)
        t = _us(ref, n=max(1, opts.calls // 10))
        with torch.no_grad(), redgen.batch_invariant(strict=True):
            ref()
            m = _us(ref, n=opts.calls)
            if opts.profile and name.startswith(opts.profile):
                pr = cProfile.Profile()
                pr.enable()
                for _ in range(2000):
                    ref()
                pr.disable()
                pstats.Stats(pr).sort_stats("tottime").print_stats(25)
        rows.append((name, d, m, t))
    print(f"host: {os.cpu_count()} cores, torch {torch.__version__}; kernels are stand-ins (no launch)")
    print("| call | direct us | in batch_invariant() us | mode - direct | torch CPU op us (computes) |")
    print("|---|---|---|---|---|")
    for name, d, m, t in rows:
        print(f"| {name} | {d:.1f} | {m:.1f} | {m - d:+.1f} | {t:.1f} |")


if __name__ == "__main__":
    main()
