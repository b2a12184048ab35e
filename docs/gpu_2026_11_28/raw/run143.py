"""Run 143 (prepared in stop 48, for the next session): var and std's rows of 8193-32768 in var_held's
two passes over a held row (the spec's `short N <= ...` raised: the module's SHORT_MAX) against
Welford's one read (shipped above 8192), torch and torch.compile. Another order: accuracy against
float64 and row 0 alone against row 0 in the batch, bit for bit, at every point.

    python3 _scratch/run143.py            # GPU
    TRITON_INTERPRET=1 python3 _scratch/run143.py --smoke   # CPU: the checks at tiny sizes, no timing
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
OPS = ("var", "std")
NS = (300,) if SMOKE else (8192, 9000, 12000, 16384, 24576, 32000)
MS = (1, 3) if SMOKE else (1, 256, 4096, 16384)
DTS = (torch.float32,) if SMOKE else (torch.float32, torch.bfloat16)
SHORT = {"welford": 0, "held": 1 << 20}  # SHORT_MAX: 0 computes every length in var (Welford)


def variant(op, short):
    from pathlib import Path

    m = load(Path(f"generated/cuda/{op}.py"))  # a fresh module: no recorded plan
    m.SHORT_MAX = short  # before any call
    return getattr(m, op)


def main():
    from gpu_run import graph_ms

    print("device", torch.cuda.get_device_name() if not SMOKE else "cpu", flush=True)
    fns = {(op, k): variant(op, v) for op in OPS for k, v in SHORT.items()}
    comp = {} if SMOKE else {op: torch.compile(getattr(torch, op), dynamic=False) for op in OPS}
    if not SMOKE:
        from torch._dynamo import config as dynamo_config

        dynamo_config.cache_size_limit = 10_000  # a specialisation per point
    print("op dtype M N | welford us | held us | held/welford | torch us | compile us | acc welford held | inv welford held")
    t0 = time.time()
    for op in OPS:
        for dt in DTS:
            for n in NS:
                for m in MS:
                    g = torch.Generator(device=DEV).manual_seed(m + n)
                    x = (torch.randn(m, n, device=DEV, generator=g) * 3 + 1).to(dt)
                    ref = getattr(torch, op)(x.double(), -1)
                    row = [op, str(dt)[6:], m, n]
                    acc, inv, times = [], [], []
                    for k in SHORT:
                        f = fns[op, k]
                        y = f(x, -1)
                        try:
                            assert_accurate(y, ref, dt)
                            acc.append("ok")
                        except AssertionError:
                            acc.append("FAIL")
                        inv.append(torch.equal(f(x[:1].clone(), -1), y[:1]))
                        times.append(float("nan") if SMOKE else graph_ms(lambda f=f: f(x, -1)) * 1e3)
                    tt = float("nan") if SMOKE else graph_ms(lambda: getattr(torch, op)(x, -1)) * 1e3
                    tc = float("nan") if SMOKE else graph_ms(lambda: comp[op](x, -1)) * 1e3
                    print(f"{op} {row[1]} {m} {n} | {times[0]:.2f} | {times[1]:.2f} | {times[1] / times[0]:.3f} | "
                          f"{tt:.2f} | {tc:.2f} | {' '.join(acc)} | {inv}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
