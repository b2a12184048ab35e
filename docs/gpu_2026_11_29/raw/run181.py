"""Run 181: the generator's modules with COLS_TILE_WIDE_BLOCK (16-bit rows of one chunk in the cols tile
walk at 64 columns a program) against the shipped ones, the six ops of that walk; bits, row 0 alone, times."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
NEW = "_scratch/r177/build3/cuda"
OPS = ["sum", "mean", "amax", "amin", "nansum", "vector_norm"]
POINTS = [(256, 4096, 64), (16, 2048, 2048), (1024, 1024, 64), (64, 1000, 128), (32, 4096, 64), (8, 4096, 64),
          (4, 4096, 64)] if not SMOKE else [(2, 600, 64)]


def main():
    from gpu_run import graph_ms, load

    t0 = time.time()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}")
    print("op | point | torch us | shipped us | new us | new/shipped | new/torch | bits | row alone")
    for op in OPS:
        old, new = load(Path(f"generated/cuda/{op}.py")), load(Path(f"{NEW}/{op}.py"))
        tfn = getattr(torch, op) if op != "vector_norm" else (lambda x, d: torch.linalg.vector_norm(x, dim=d))
        for shape in POINTS + ([(256, 4096, 64, "f16")] if op == "sum" and not SMOKE else []):
            dt = torch.float16 if len(shape) == 4 else torch.bfloat16
            shape = shape[:3]
            g = torch.Generator(device=DEV).manual_seed(0)
            x = (torch.randn(*shape, device=DEV, generator=g) * 3).to(dt)
            a, b = getattr(old, op)(x, 1), getattr(new, op)(x, 1)
            bits = torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))
            alone = torch.equal(getattr(new, op)(x[:1], 1), b[:1])
            to = float("nan") if SMOKE else graph_ms(lambda: getattr(old, op)(x, 1)) * 1e3
            tn = float("nan") if SMOKE else graph_ms(lambda: getattr(new, op)(x, 1)) * 1e3
            tt = float("nan") if SMOKE else graph_ms(lambda: tfn(x, 1)) * 1e3
            print(f"{op} | {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.1f} | {to:.1f} | {tn:.1f} | {tn / to:.3f} | "
                  f"{tn / tt:.3f} | {bits} | {alone}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
