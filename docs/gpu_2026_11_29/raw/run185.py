"""Run 185: var's f32 cols walks, the COLS_STEP_* rule's settings interleaved (three rounds), against the
session start's module: does f32 at several column blocks a row gain or lose (runs 182 and 184 disagreed)?"""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
# (name, COLS_STEP_UNROLL, COLS_STEP_MAXNREG) on the built module; "head": the start's module
SETS = [("u2_r168", 2, 168), ("u1", 1, 0), ("u2", 2, 0), ("u1_r168", 1, 168)]
POINTS = [(torch.float32, (256, 40000, 64)), (torch.float32, (64, 40000, 64)), (torch.float32, (128, 40000, 32)),
          (torch.float32, (64, 40000, 16)), (torch.bfloat16, (256, 40000, 64)), (torch.bfloat16, (128, 40000, 32))]


def same(a, b):
    return a.shape == b.shape and torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    head, built = load(Path("_scratch/r184/head/var.py")), load(Path("generated/cuda/var.py"))
    print("point | round | torch | head | " + " | ".join(n for n, _, _ in SETS) + " | bits")
    for dt, shape in POINTS if not SMOKE else [(torch.float32, (2, 4500, 20))]:
        if SMOKE:
            head.SHORT_MAX = built.SHORT_MAX = 0
        x = (torch.randn(*shape, device=DEV, generator=torch.Generator(device=DEV).manual_seed(0)) * 3 + 1).to(dt)
        ref = head.var(x, 1)
        bits = True
        for rnd in range(3):
            row = [graph_ms(lambda: torch.var(x, 1)) * 1e3 if not SMOKE else float("nan"),
                   graph_ms(lambda: head.var(x, 1)) * 1e3 if not SMOKE else float("nan")]
            for _, u, r in SETS:
                built.COLS_STEP_UNROLL, built.COLS_STEP_MAXNREG = u, r
                bits &= same(built.var(x, 1), ref)
                row.append(graph_ms(lambda: built.var(x, 1)) * 1e3 if not SMOKE else float("nan"))
            print(f"{str(dt)[6:]} {'x'.join(map(str, shape))} | {rnd} | " + " | ".join(f"{t:.1f}" for t in row)
                  + f" | {bits}", flush=True)
        del x
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
