"""Run 149: logsumexp's rows of at most 32768 in logsumexp_held (max, then sum(exp(x - m)) over the
row held on chip: one exp an element) against the online combine (the module with SHORT_MAX = 0),
torch and torch.compile. Accuracy against float64 and row 0 alone against row 0 in the batch, bit for
bit, at every point; edge rows (-inf, +inf, nan) compared with torch.

    python3 _scratch/run149.py            # GPU
    TRITON_INTERPRET=1 python3 _scratch/run149.py --smoke
"""
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
NS = (300, 5000) if SMOKE else (4096, 8192, 12000, 16384, 32000)
MS = (1, 3) if SMOKE else (1, 32, 256, 4096, 16384)
DTS = (torch.float32, torch.bfloat16)


def main():
    from pathlib import Path

    from gpu_run import graph_ms

    online = load(Path("generated/cuda/logsumexp.py"))
    online.SHORT_MAX = 0
    held = load(Path("generated/cuda/logsumexp_held.py"))
    fns = {"online": online.logsumexp, "held": held.logsumexp_held}
    comp = None
    if not SMOKE:
        from torch._dynamo import config as dynamo_config

        dynamo_config.cache_size_limit = 10_000
        comp = torch.compile(torch.logsumexp, dynamic=False)
    inf = float("inf")
    edge = torch.tensor([[-inf] * 5, [inf, 1, 2, 3, 4], [1, float("nan"), 2, 3, 4], [-inf, 1, -inf, 2, 3],
                         [3.0e38, 3.0e38, 1, 2, 3]], device=DEV)
    for k, f in fns.items():
        got, want = f(edge, -1), torch.logsumexp(edge.double(), -1).float()
        print(f"edge {k}: {got.tolist()} torch {want.tolist()} equal_nan {torch.allclose(got, want, equal_nan=True)}")
    print("dtype M N | online us | held us | held/online | torch us | compile us | acc online held | inv online held | GB/s held")
    t0 = time.time()
    for dt in DTS:
        for n in NS:
            for m in MS:
                if m * n > (1 << 29):
                    continue
                g = torch.Generator(device=DEV).manual_seed(m + n)
                x = (torch.randn(m, n, device=DEV, generator=g) * 4).to(dt)
                ref = torch.logsumexp(x.double(), -1)
                acc, inv, times = [], [], []
                for f in fns.values():
                    y = f(x, -1)
                    try:
                        assert_accurate(y, ref, dt)
                        acc.append("ok")
                    except AssertionError:
                        acc.append("FAIL")
                    inv.append(torch.equal(f(x[:1].clone(), -1), y[:1]))
                    times.append(float("nan") if SMOKE else graph_ms(lambda f=f: f(x, -1)) * 1e3)
                tt = float("nan") if SMOKE else graph_ms(lambda: torch.logsumexp(x, -1)) * 1e3
                tc = float("nan") if SMOKE else graph_ms(lambda: comp(x, -1)) * 1e3
                gbs = x.numel() * x.element_size() / (times[1] * 1e3)
                print(f"{str(dt)[6:]} {m} {n} | {times[0]:.2f} | {times[1]:.2f} | {times[1] / times[0]:.3f} | "
                      f"{tt:.2f} | {tc:.2f} | {' '.join(acc)} | {inv} | {gbs:.0f}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
