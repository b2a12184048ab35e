"""Run 153 (stop 50): the shipped grouped argmax / argmin walk (generated/, Plan.group_walk) against
the modules before it (_scratch/v_old) and a variant whose groups that end inside the chunk skip
the mask (_scratch/v_arg2, _scratch/argpatch2.py), torch and torch.compile (argmax), f32 and bf16,
rows 1-16384 x 4096-151936. Every result compared with torch's (exact), row 0 alone with row 0 in
the batch; bandwidth (bytes read) against the copy bandwidth (read + write) of the same run."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
VARIANTS = {"before": "_scratch/v_old/cuda", "shipped": "generated/cuda", "unmasked": "_scratch/v_arg2/cuda"}


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    pts = [(1, 4096), (1, 32000), (1, 151936), (32, 8192), (32, 32000), (32, 151936), (256, 4096), (256, 16384),
           (256, 151936), (4096, 4096), (4096, 8192), (4096, 16384), (4096, 32000), (16384, 4096), (16384, 16384),
           (1024, 151936)]
    if SMOKE:
        pts = [(3, 5000)]
    names = list(VARIANTS)
    print("op dtype M N | " + " | ".join(f"{k} us" for k in names) + " | torch us | compile us | shipped/before | "
          "unmasked/shipped | torch/shipped | compile/shipped | shipped % copy | exact | invariant")
    for op in ("argmax", "argmin"):
        mods = {k: getattr(load(Path(f"{d}/{op}.py")), op) for k, d in VARIANTS.items()}
        ref = getattr(torch, op)
        comp = torch.compile(ref, dynamic=False) if op == "argmax" and not SMOKE else None
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
                tc = float("nan")
                if comp is not None and time.time() - t0 < 400:
                    comp(x, dim=1)
                    tc = graph_ms(lambda: comp(x, dim=1)) * 1e3
                gbs = x.numel() * x.element_size() / (ts["shipped"] * 1e-6) / 1e9
                print(f"{op} {str(dt)[6:]} {m} {n} | " + " | ".join(f"{ts[k]:.2f}" for k in names)
                      + f" | {tt:.2f} | {tc:.2f} | {ts['shipped'] / ts['before']:.3f} | {ts['unmasked'] / ts['shipped']:.3f}"
                      f" | {tt / ts['shipped']:.3f} | {tc / ts['shipped']:.3f} | {100 * gbs / cbw:.0f}% | {exact} | {inv}",
                      flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
