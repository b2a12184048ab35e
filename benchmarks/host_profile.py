"""Where a replayed call's host time goes, on a GPU: its pieces timed alone and a cProfile.

    PYTHONPATH=. python benchmarks/host_profile.py
"""

from __future__ import annotations

import cProfile
import importlib
import pstats
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_run import cpu_us  # noqa: E402


def main() -> None:
    import triton

    import redgen
    from redgen.runtime.loader import load

    mean = importlib.import_module(load("mean", "cuda").__module__)
    x = torch.randn(64, 4096, device="cuda")
    mean.mean(x, -1)
    mean.mean(x, -1)
    key = next(iter(mean._PLANS))
    plan = mean._PLANS[key]
    (_, grid, template, slots, _, bound) = plan[5][0]
    args = list(template)
    for pos, _src, _i in slots:
        args[pos] = x
    compiled, run, function, metadata, (g0, g1, g2), tail = bound
    stream = mean._raw_stream(0)
    out = torch.empty(64, dtype=torch.float32, device="cuda")
    args[slots[-1][0]] = out
    knobs = (mean._INTERPRET, mean.SPLIT_BELOW, mean.FINISH_BLOCK, mean.UNROLL)
    pieces = [
        ("torch.mean(x, -1)", lambda: torch.mean(x, -1)),
        ("redgen mean (replayed)", lambda: mean.mean(x, -1)),
        ("compiled run alone", lambda: run(g0, g1, g2, stream, function, metadata, None, None, None, *args, *tail)),
        ("compiled run, data_ptr ints", lambda: run(g0, g1, g2, stream, function, metadata, None, None, None,
                                                    *[a.data_ptr() if isinstance(a, torch.Tensor) else a
                                                      for a in args], *tail)),
        ("torch.empty(64)", lambda: torch.empty(64, dtype=torch.float32, device="cuda")),
        ("torch.cuda.current_device()", torch.cuda.current_device),
        ("torch._C._cuda_getDevice()", torch._C._cuda_getDevice),
        ("_raw_stream(0)", lambda: mean._raw_stream(0)),
        ("_hooks()", mean._hooks),
        ("triton.knobs.runtime", lambda: triton.knobs.runtime),
        ("signature key", lambda: (mean._run, knobs, 0, *map(mean._sig, (x, -1, False, None)))),
        ("_PLANS.get(key)", lambda: mean._PLANS.get(key)),
        ("x.data_ptr()", x.data_ptr),
        ("x.stride()", x.stride),
        ("x.device", lambda: x.device),
    ]
    print(f"device: {torch.cuda.get_device_name()}")
    print("| piece | host us |\n|---|---|")
    for name, fn in pieces:
        fn()
        print(f"| {name} | {min(cpu_us(fn, 5000) for _ in range(3)):.2f} |")
    for label, call in (("replayed mean", lambda: mean.mean(x, -1)), ("torch.mean in the mode", None)):
        prof = cProfile.Profile()
        if call is None:
            with redgen.batch_invariant():
                torch.mean(x, -1)
                prof.enable()
                for _ in range(3000):
                    torch.mean(x, -1)
                prof.disable()
        else:
            prof.enable()
            for _ in range(3000):
                call()
            prof.disable()
        torch.cuda.synchronize()
        print(f"--- cProfile: {label}, 3000 calls")
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
