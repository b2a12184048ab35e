"""Run 157 (stop 50): argmax's split path against its fused walk (SPLIT_BELOW 0) on short grids of rows
of 2-8 chunks, where the split path takes two launches (run 154: 1 x 8192 2.95 us, torch.compile
2.13). Every result compared with torch's; row 0 alone with row 0 in the batch."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"


def main():
    from gpu_run import graph_ms, load

    t0 = time.time()
    mods = {}
    for k, sb in (("natural", None), ("fused", 0), ("split", 1 << 62)):
        mod = load(Path("generated/cuda/argmax.py"))
        if sb is not None:
            mod.SPLIT_BELOW = sb
        mods[k] = (mod, mod.argmax)
    print("dtype M N | natural path | natural us | fused us | split us | torch us | fused/natural | exact | invariant")
    ms = (1, 3) if SMOKE else (1, 8, 32, 64, 132, 256, 512)
    ns = (5000,) if SMOKE else (8192, 12288, 16384, 32000)
    for dt in (torch.float32, torch.bfloat16):
        for n in ns:
            for m in ms:
                x = torch.randn(m, n, device=DEV).to(dt)
                want = torch.argmax(x, dim=1)
                exact, inv, ts = True, True, {}
                for k, (mod, f) in mods.items():
                    exact &= torch.equal(f(x, dim=1), want)
                    inv &= torch.equal(f(x[:1], dim=1), f(x, dim=1)[:1])
                    ts[k] = float("nan") if SMOKE else graph_ms(lambda f=f: f(x, dim=1)) * 1e3
                path = "split" if mods["natural"][0]._schedule(m, n, 1, x.element_size())[6] else "fused"
                tt = float("nan") if SMOKE else graph_ms(lambda: torch.argmax(x, dim=1)) * 1e3
                print(f"{str(dt)[6:]} {m} {n} | {path} | {ts['natural']:.2f} | {ts['fused']:.2f} | {ts['split']:.2f} | "
                      f"{tt:.2f} | {ts['fused'] / ts['natural']:.3f} | {exact} | {inv}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
