"""Where a generated launcher's host time goes: our Python vs Triton's launch.

    python benchmarks/host_overhead.py
"""

from __future__ import annotations

import cProfile
import importlib.util
import pstats
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "generated" / "cuda" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def per_call_us(fn, n: int = 500) -> float:
    fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / n * 1e6


def main() -> None:
    mod = load("mean")
    x = torch.randn(64, 4096, device="cuda")
    print(f"full launcher mean(x, -1): {per_call_us(lambda: mod.mean(x, -1)):.1f} us")
    real = mod._launch
    mod._launch = lambda *a: None
    print(f"launcher without _launch: {per_call_us(lambda: mod.mean(x, -1)):.1f} us")
    mod._launch = real
    y = torch.empty(64, 1, device="cuda")
    chunk = mod.CERTIFICATE["order"]["chunk"]
    chunk = int(chunk) if chunk.isdigit() else 4096
    # x_ptr, s_x_m, s_x_n, s_x_k, y_ptr, s_y_m, s_y_k, M, N, K, R, CHUNK, NUM_CHUNKS
    args = (x, x.stride(0), x.stride(1), 0, y, y.stride(0), y.stride(1), 64, 4096, 1, 64, chunk, -(-4096 // chunk))
    k = mod._mean_rows_fused

    def raw():
        k[(64,)](*args, BLOCK=1, LANES=mod.LANES, LOG2_LANES=mod.LANES.bit_length() - 1, num_warps=4)

    print(f"raw triton launch of the fused kernel: {per_call_us(raw):.1f} us")
    print(f"torch.mean(x, -1): {per_call_us(lambda: torch.mean(x, -1)):.1f} us")
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(300):
        mod.mean(x, -1)
    prof.disable()
    torch.cuda.synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    main()
