"""Run 174 (stop 53): var's Welford walk with its step form (_welford_step: the weight 1 / (k + 1) once a
tile in the whole groups, not a division a lane), and the cols kernels' block, warps and COLS_UNROLL.
Variants (_scratch/r174): new = the generator's module (step, tile K 16, 4 warps, COLS_UNROLL 1);
sKWU = step with tile K = K, W warps, COLS_UNROLL U. Every variant's bits against the shipped module."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
COLS = [(2, 65536, 64), (64, 40000, 16), (256, 40000, 64), (16, 151936, 8)] if not SMOKE else [(2, 33000, 3)]
ROWS = [(64, 65536), (1024, 40000), (16, 151936), (2048, 65536)] if not SMOKE else [(2, 33000)]
VARIANTS = ["new", "s841", "s842", "s881", "s882", "s884", "s1681", "s1682"]


def main():
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    mods = {"shipped": load(Path("generated/cuda/var.py"))}
    mods["new"] = load(Path("_scratch/r174/new/cuda/var.py"))
    for v in VARIANTS[1:]:
        mods[v] = load(Path(f"_scratch/r174/{v}/var.py"))
    std_old, std_new = load(Path("generated/cuda/std.py")), load(Path("_scratch/r174/new/cuda/std.py"))
    print("point | torch us | " + " | ".join(f"{k} us" for k in mods) + " | best/shipped | best/torch | best % copy | "
          "bits == shipped | accurate | row alone | std bits")
    for shape in COLS + ROWS:
        for dt in (torch.float32, torch.bfloat16):
            g = torch.Generator(device=DEV).manual_seed(0)
            x = (torch.randn(*shape, device=DEV, generator=g) * 3 + 1).to(dt)
            ref = x.double().var(dim=1)
            ys = {k: m.var(x, dim=1) for k, m in mods.items()}
            same = "".join("T" if torch.equal(ys[k], ys["shipped"]) else "F" for k in mods)
            acc = ""
            for k in mods:
                try:
                    assert_accurate(ys[k], ref, dt)
                    acc += "T"
                except AssertionError:
                    acc += "F"
            alone = "".join("T" if torch.equal(m.var(x[:1].contiguous(), dim=1), ys[k][:1]) else "F"
                            for k, m in mods.items())
            sb = torch.equal(std_old.std(x, dim=1), std_new.std(x, dim=1))
            ts = {k: float("nan") if SMOKE else graph_ms(lambda m=m: m.var(x, dim=1)) * 1e3 for k, m in mods.items()}
            tt = float("nan") if SMOKE else graph_ms(lambda: torch.var(x, dim=1)) * 1e3
            best = min(ts, key=lambda k: ts[k]) if not SMOKE else "new"
            gb = x.numel() * x.element_size() / 1e9
            pct = 100 * gb / (ts[best] * 1e-6) / cbw  # bytes read a second against the copy bandwidth
            print(f"var {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.1f} | "
                  + " | ".join(f"{ts[k]:.1f}" for k in mods)
                  + f" | {best} {ts[best] / ts['shipped']:.3f} | {ts[best] / tt:.3f} | {pct:.0f}% | {same} | {acc} | "
                  f"{alone} | {sb}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
