"""Run 175 (stop 53): var's cols lane tree over the untransposed tile (run 172's vt2: tl.reduce over
[LANES >> (i + 1), 2, BLOCK]) on top of the step form: nt2 = shipped (6e80413) + vt2, s1681t2 = tile K
16, 8 warps + vt2. Bits against the shipped module."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
COLS = [(2, 65536, 64), (64, 40000, 16), (256, 40000, 64), (16, 151936, 8), (64, 40000, 64), (32, 65536, 32)]
if SMOKE:
    COLS = [(2, 33000, 3)]


def main():
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    mods = {"shipped": load(Path("generated/cuda/var.py")), "nt2": load(Path("_scratch/r174/nt2/var.py")),
            "s1681t2": load(Path("_scratch/r174/s1681t2/var.py"))}
    print("point | torch us | " + " | ".join(f"{k} us" for k in mods) + " | nt2/shipped | s1681t2/shipped | "
          "bits == shipped | accurate | row alone")
    for shape in COLS:
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
            ts = {k: float("nan") if SMOKE else graph_ms(lambda m=m: m.var(x, dim=1)) * 1e3 for k, m in mods.items()}
            tt = float("nan") if SMOKE else graph_ms(lambda: torch.var(x, dim=1)) * 1e3
            print(f"var {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.1f} | "
                  + " | ".join(f"{ts[k]:.1f}" for k in mods)
                  + f" | {ts['nt2'] / ts['shipped']:.3f} | {ts['s1681t2'] / ts['shipped']:.3f} | {same} | {acc} | "
                  f"{alone}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
