"""Run 180: sum / mean / amax's cols tile walk (N past COLS_STACK_N) at 16, 32 (the spec's) and 64
columns a program: the grid's waves. Bits against the shipped module, times, torch."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
POINTS = [(256, 4096, 64), (128, 4096, 64), (512, 4096, 64), (256, 8192, 64), (64, 4096, 256), (1024, 1024, 64),
          (256, 2048, 128)] if not SMOKE else [(2, 600, 64)]


def with_block(mod, b):
    own = mod._schedule

    def sched(M, N, K, isz):
        r = list(own(M, N, K, isz))
        if r[2] == "cols" and r[3] == 32 and K >= 32:
            r[3], r[4] = b, M * -(-K // b)
        return tuple(r)

    mod._schedule = sched
    return mod


def main():
    from gpu_run import graph_ms, load

    t0 = time.time()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; SMs "
          f"{0 if SMOKE else torch.cuda.get_device_properties(0).multi_processor_count}")
    print("op | point | torch us | b16 us | b32 (shipped) us | b64 us | b16/b32 | b64/b32 | b32/torch | bits (b16, b64)")
    for op in ("sum", "amax"):
        path = Path(f"generated/cuda/{op}.py")
        mods = {"b16": with_block(load(path), 16), "b32": load(path), "b64": with_block(load(path), 64)}
        for shape in POINTS:
            for dt in (torch.bfloat16, torch.float32):
                g = torch.Generator(device=DEV).manual_seed(0)
                x = (torch.randn(*shape, device=DEV, generator=g) * 3).to(dt)
                ys = {k: getattr(m, op)(x, 1) for k, m in mods.items()}
                bits = "".join("T" if torch.equal(ys[k], ys["b32"]) else "F" for k in ("b16", "b64"))
                ts = {k: float("nan") if SMOKE else graph_ms(lambda m=m: getattr(m, op)(x, 1)) * 1e3
                      for k, m in mods.items()}
                tt = float("nan") if SMOKE else graph_ms(lambda: getattr(torch, op)(x, 1)) * 1e3
                print(f"{op} | {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.1f} | {ts['b16']:.1f} | {ts['b32']:.1f} | "
                      f"{ts['b64']:.1f} | {ts['b16'] / ts['b32']:.3f} | {ts['b64'] / ts['b32']:.3f} | "
                      f"{ts['b32'] / tt:.3f} | {bits}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
