"""Run 184: var's and std's modules as built (the count held as the walk's seen; the cols kernels'
COLS_STEP_* rule) against the modules of the session's start: bits equal, row 0 alone, times, torch."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
BF, F32 = torch.bfloat16, torch.float32
# (name, module, COLS_UNROLL, maxnreg of the cols kernels; 0 none)
OP = "std" if "std" in sys.argv else "var"
VARIANTS = [("head", f"_scratch/r184/head/{OP}.py"), ("built", f"generated/cuda/{OP}.py")]
COLS = [(256, 40000, 64), (64, 40000, 64), (2, 65536, 64), (64, 40000, 16), (16, 151936, 8), (1024, 40000, 4)]
ROWS = [(2048, 65536), (64, 65536)]


def same(a, b):
    return a.shape == b.shape and torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    mods = [(name, load(Path(path))) for name, path in VARIANTS]
    print("point | torch us | " + " | ".join(n for n, _ in mods) + " | built/head | built/torch | bits | alone")
    pts = [(d, s) for s in COLS + ROWS for d in (F32, BF)]
    if SMOKE:
        pts = [(F32, (2, 4500, 20)), (BF, (3, 4500))]
    for dt, shape in pts:
        g = torch.Generator(device=DEV).manual_seed(0)
        x = (torch.randn(*shape, device=DEV, generator=g) * 3 + 1).to(dt)
        rows = len(shape) == 2
        if SMOKE:
            for _, m in mods:
                m.SHORT_MAX = 0
        ref = getattr(mods[0][1], OP)(x, 1)
        bits, alone, times = True, True, []
        for name, m in mods:
            y = getattr(m, OP)(x, 1)
            bits &= same(y, ref)
            alone &= same(getattr(m, OP)(x[:1], 1)[0], y[0])
            times.append(float("nan") if SMOKE else graph_ms(lambda m=m: getattr(m, OP)(x, 1)) * 1e3)
        tt = float("nan") if SMOKE else graph_ms(lambda: getattr(torch, OP)(x, 1)) * 1e3
        ok = [t for t in times if t == t]
        best = min(ok) if ok else float("nan")
        nbytes = x.numel() * x.element_size()
        label = f"{str(dt)[6:]} {'x'.join(map(str, shape))}"
        print(f"{label} | {tt:.1f} | " + " | ".join(f"{t:.1f}" for t in times)
              + f" | {times[1] / times[0]:.3f} | {times[1] / tt:.3f} | {bits} | {alone} | built {100 * nbytes / 1e3 / times[1] / cbw:.0f}% read of copy",
              flush=True)
        del x
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
