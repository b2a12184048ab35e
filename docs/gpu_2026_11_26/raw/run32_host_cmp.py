"""Wall time per call, calls back to back (host-bound at these shapes): torch, then each module."""
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: N812

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from gpu_run import load  # noqa: E402

CASES = [  # (op, shape, torch call, module call)
    ("softmax", (8, 32000), lambda x: torch.softmax(x, -1), lambda f, x: f(x, -1)),
    ("softmax", (1, 151936), lambda x: torch.softmax(x, -1), lambda f, x: f(x, -1)),
    ("log_softmax", (8, 32000), lambda x: torch.log_softmax(x, -1), lambda f, x: f(x, -1)),
    ("layer_norm", (8, 16384), None, None),
    ("argmax", (8, 32000), lambda x: torch.argmax(x, -1), lambda f, x: f(x, -1)),
]


def per_call_us(fn, n=3000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
    return best


print(f"device {torch.cuda.get_device_name()}")
for op, shape, tcall, mcall in CASES:
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
    if op == "layer_norm":
        w = torch.randn(shape[-1], device="cuda", dtype=torch.bfloat16)
        tcall = lambda x: F.layer_norm(x, x.shape[-1:], w, w, 1e-5)  # noqa: E731
        mcall = lambda f, x: f(x, w, w)  # noqa: E731
    row = {"torch": per_call_us(lambda: tcall(x))}
    for tag, path in (("before", f"bench_variants/{op}_f0.py"), ("after", f"generated/cuda/{op}.py")):
        f = getattr(load(Path(path)), op)
        a = mcall(f, x)
        row[tag] = per_call_us(lambda: mcall(f, x))  # noqa: B023
    print(f"{op} {shape} bf16: " + ", ".join(f"{k} {v:.1f} us" for k, v in row.items())
          + f"; after - torch {row['after'] - row['torch']:+.1f}, after - before {row['after'] - row['before']:+.1f}")
