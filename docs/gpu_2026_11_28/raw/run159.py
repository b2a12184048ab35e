"""Run 159 (stop 50): ncu of argmax's folded walk, f32 against bf16, to find what holds bf16 at
60-70% of the copy bandwidth where f32 reaches 100% (runs 154-156). One call each is profiled
(cudaProfilerStart/Stop around it); its kernels are the split path's partial and finish."""
import os
import sys

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

POINTS = [(torch.float32, 4096, 16384), (torch.bfloat16, 4096, 16384), (torch.bfloat16, 16384, 4096)]


def main():
    from gpu_run import load

    f = load(Path("generated/cuda/argmax.py")).argmax
    cudart = torch.cuda.cudart()
    for dt, m, n in POINTS:
        x = torch.randn(m, n, device="cuda").to(dt)
        for _ in range(3):
            f(x, dim=1)
        torch.cuda.synchronize()
        print(f"== argmax {str(dt)[6:]} {m}x{n}", flush=True)
        cudart.cudaProfilerStart()
        f(x, dim=1)
        torch.cuda.synchronize()
        cudart.cudaProfilerStop()


if __name__ == "__main__":
    main()
