"""Where a generated launcher's host time goes: our Python vs Triton's launch.

    python benchmarks/host_overhead.py
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_run import ROOT, load  # noqa: E402  (the same loader and host timer as the main run)
from gpu_run import cpu_us as per_call_us  # noqa: E402


def main() -> None:
    mod = load(ROOT / "generated" / "cuda" / "mean.py")
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
    k = mod._k_rows_fused  # kernels are named by the emitter (_k_<shape>_<kind>), not after the op

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
