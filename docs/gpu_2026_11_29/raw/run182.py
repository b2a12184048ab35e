"""Run 182: var's cols walks. The step form without the count state (the walk's seen is every lane's
count), COLS_UNROLL, the column block and a register cap (maxnreg) on the cols kernels, against the
shipped module: bits equal, row 0 alone, times, torch."""
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
VARIANTS = [
    ("ship", "generated/cuda/var.py", 1, 0),
    ("cnt", "_scratch/r182/k16/var.py", 1, 0),
    ("cnt_r168", "_scratch/r182/k16/var.py", 1, 168),
    ("cnt_u2_r168", "_scratch/r182/k16/var.py", 2, 168),
    ("k8_u2_r128", "_scratch/r182/k8/var.py", 2, 128),
    ("k8_u4", "_scratch/r182/k8/var.py", 4, 0),
    ("k8_u4_r128", "_scratch/r182/k8/var.py", 4, 128),
]
COLS = [(256, 40000, 64), (64, 40000, 64), (2, 65536, 64), (64, 40000, 16), (16, 151936, 8), (1024, 40000, 4)]
ROWS = [(2048, 65536), (64, 65536)]


def same(a, b):
    return a.shape == b.shape and torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))


def capped(mod, unroll, nreg):
    mod.COLS_UNROLL = unroll
    own = mod._go

    def go(kernel, grid, args, consts):
        if nreg and "cols" in kernel.fn.__name__:
            consts = dict(consts, maxnreg=nreg)
        return own(kernel, grid, args, consts)

    mod._go = go
    return mod


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    mods = [(name, capped(load(Path(path)), u, r)) for name, path, u, r in VARIANTS]
    print("point | torch us | " + " | ".join(n for n, _ in mods) + " | best/ship | best/torch | bits | alone")
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
        ref = mods[0][1].var(x, 1)
        bits, alone, times = True, True, []
        for name, m in mods:
            if rows and name not in ("ship", "cnt"):
                times.append(float("nan"))
                continue
            y = m.var(x, 1)
            bits &= same(y, ref)
            alone &= same(m.var(x[:1], 1)[0], y[0])
            times.append(float("nan") if SMOKE else graph_ms(lambda m=m: m.var(x, 1)) * 1e3)
        tt = float("nan") if SMOKE else graph_ms(lambda: torch.var(x, 1)) * 1e3
        ok = [t for t in times if t == t]
        best = min(ok) if ok else float("nan")
        nbytes = x.numel() * x.element_size()
        label = f"{str(dt)[6:]} {'x'.join(map(str, shape))}"
        print(f"{label} | {tt:.1f} | " + " | ".join(f"{t:.1f}" for t in times)
              + f" | {best / times[0]:.3f} | {best / tt:.3f} | {bits} | {alone} | best {100 * nbytes / 1e3 / best / cbw:.0f}% read of copy",
              flush=True)
        del x
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
