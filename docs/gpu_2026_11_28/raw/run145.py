"""Run 145: var's columns (dim 0 of [N, K]) at N 8192-32000 in var_held (SHORT_MAX raised) against
Welford, torch and compile; accuracy and column 0 alone vs in the batch, bit for bit."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
import torch  # noqa: E402

from gpu_run import load  # noqa: E402
from tests.tolerances import assert_accurate  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
NS = (300,) if SMOKE else (8192, 12000, 16384, 24576, 32000)
KS = (5,) if SMOKE else (16, 256, 2048, 8192)
DTS = (torch.float32,) if SMOKE else (torch.float32, torch.bfloat16)
SHORT = {"welford": 0, "held": 1 << 20}


def variant(short):
    from pathlib import Path

    m = load(Path("generated/cuda/var.py"))
    m.SHORT_MAX = short
    return m.var


def main():
    from gpu_run import graph_ms

    fns = {k: variant(v) for k, v in SHORT.items()}
    comp = None if SMOKE else torch.compile(torch.var, dynamic=False)
    if not SMOKE:
        from torch._dynamo import config as dynamo_config
        dynamo_config.cache_size_limit = 10_000
    print("dtype N K | welford us | held us | held/welford | torch us | compile us | acc | inv")
    t0 = time.time()
    for dt in DTS:
        for n in NS:
            for k in KS:
                g = torch.Generator(device=DEV).manual_seed(n + k)
                x = (torch.randn(n, k, device=DEV, generator=g) * 3 + 1).to(dt)
                ref = torch.var(x.double(), 0)
                acc, inv, times = [], [], []
                for name, f in fns.items():
                    y = f(x, 0)
                    try:
                        assert_accurate(y, ref, dt)
                        acc.append("ok")
                    except AssertionError:
                        acc.append("FAIL")
                    inv.append(torch.equal(f(x[:, :1].clone(), 0), y[:1]))
                    times.append(float("nan") if SMOKE else graph_ms(lambda f=f: f(x, 0)) * 1e3)
                tt = float("nan") if SMOKE else graph_ms(lambda: torch.var(x, 0)) * 1e3
                tc = float("nan") if SMOKE else graph_ms(lambda: comp(x, 0)) * 1e3
                print(f"{str(dt)[6:]} {n} {k} | {times[0]:.2f} | {times[1]:.2f} | {times[1] / times[0]:.3f} | "
                      f"{tt:.2f} | {tc:.2f} | {' '.join(acc)} | {inv}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
