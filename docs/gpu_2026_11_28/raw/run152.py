"""Run 152 (stop 50): argmax / argmin's walk with an UNROLL group combined lane-wise as
max-then-first-match (_scratch/argpatch.py builds the variant modules into _scratch/v_arg/cuda)
against the shipped modules and torch, f32 and bf16, rows 1-16384 x 4096-151936. Every variant's
result is compared with torch's (exact) and row 0 alone with row 0 in the batch, at every point;
bandwidth against the copy bandwidth of the same run."""
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
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"copy bandwidth {cbw:.0f} GB/s")
    pts = [(1, 4096), (1, 32000), (1, 151936), (32, 8192), (32, 32000), (32, 151936), (256, 4096), (256, 16384),
           (256, 151936), (4096, 4096), (4096, 8192), (4096, 16384), (4096, 32000), (16384, 4096), (16384, 16384),
           (1024, 151936)]
    if SMOKE:
        pts = [(3, 5000)]
    print("op dtype M N | shipped us | proto us | torch us | proto/shipped | torch/proto | proto % copy | exact | invariant")
    for op in ("argmax", "argmin"):
        mods = {"shipped": getattr(load(Path(f"generated/cuda/{op}.py")), op),
                "proto": getattr(load(Path(f"_scratch/v_arg/cuda/{op}.py")), op)}
        ref = getattr(torch, op)
        for dt in (torch.float32, torch.bfloat16):
            for m, n in pts:
                x = torch.randn(m, n, device=DEV).to(dt)
                want = ref(x, dim=1)
                exact, inv, ts = True, True, {}
                for name, f in mods.items():
                    exact &= torch.equal(f(x, dim=1), want)
                    inv &= torch.equal(f(x[:1], dim=1), f(x, dim=1)[:1])
                    ts[name] = float("nan") if SMOKE else graph_ms(lambda f=f: f(x, dim=1)) * 1e3
                tt = float("nan") if SMOKE else graph_ms(lambda: ref(x, dim=1)) * 1e3
                gbs = x.numel() * x.element_size() / (ts["proto"] * 1e-6) / 1e9
                print(f"{op} {str(dt)[6:]} {m} {n} | {ts['shipped']:.2f} | {ts['proto']:.2f} | {tt:.2f} | "
                      f"{ts['proto'] / ts['shipped']:.3f} | {tt / ts['proto']:.3f} | {100 * gbs / cbw:.0f}% | {exact} | {inv}",
                      flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
