"""Run 158 (stop 50): argmax / argmin held by the row kernel (rows of 4096-16384, one launch, the
row's loads issued at once; each element combined as a pair, no group fold) against the shipped
modules (the folded walks; the split path's two launches at short grids), f32 and bf16. Variant
modules built with the plan's row_tiles set for them (_scratch/v_argrow, built by run158_build.py). Every
result compared with torch's; row 0 alone with row 0 in the batch."""
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
    print("op dtype M N | shipped path | shipped us | row us | torch us | row/shipped | exact | invariant")
    ms = (1, 3) if SMOKE else (1, 8, 32, 132, 256, 1024, 4096, 16384)
    ns = (5000,) if SMOKE else (4096, 8192, 12288, 16384)
    for op in ("argmax",) if not SMOKE else ("argmax", "argmin"):
        old = load(Path(f"generated/cuda/{op}.py"))
        new = load(Path(f"_scratch/v_argrow/cuda/{op}.py"))
        ref = getattr(torch, op)
        for dt in (torch.float32, torch.bfloat16):
            for n in ns:
                for m in ms:
                    x = torch.randn(m, n, device=DEV).to(dt)
                    want = ref(x, dim=1)
                    exact, inv, ts = True, True, {}
                    for k, mod in (("shipped", old), ("row", new)):
                        f = getattr(mod, op)
                        exact &= torch.equal(f(x, dim=1), want)
                        inv &= torch.equal(f(x[:1], dim=1), f(x, dim=1)[:1])
                        ts[k] = float("nan") if SMOKE else graph_ms(lambda f=f: f(x, dim=1)) * 1e3
                    sch = old._schedule(m, n, 1, x.element_size())
                    path = "split" if sch[6] else "fused"
                    tt = float("nan") if SMOKE else graph_ms(lambda: ref(x, dim=1)) * 1e3
                    print(f"{op} {str(dt)[6:]} {m} {n} | {path} | {ts['shipped']:.2f} | {ts['row']:.2f} | {tt:.2f} | "
                          f"{ts['row'] / ts['shipped']:.3f} | {exact} | {inv}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
