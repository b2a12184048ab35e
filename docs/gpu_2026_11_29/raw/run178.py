"""Run 178: the across form of packed bf16 rows of eight chunks (16 warps, 105-127 registers: one
program a multiprocessor) capped to two programs an SM: maxnreg 64 at 16 warps (n64), or 8 warps
(ROW_ACROSS_PACK_CHUNKS 8: four words a thread) capped at 128 (c8n128). Bits against the shipped module."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
EPS = 1e-6
CALLS = {
    "softmax_held": lambda m, x, w, b: m.softmax_held(x, -1),
    "log_softmax_held": lambda m, x, w, b: m.log_softmax_held(x, -1),
    "rms_norm": lambda m, x, w, b: m.rms_norm(x, w, eps=EPS),
    "layer_norm": lambda m, x, w, b: m.layer_norm(x, w, b, eps=EPS)[0],
}
POINTS = [(4096, 32000), (16384, 32000), (1024, 32000)] if not SMOKE else [(2, 30000)]


def capped(mod, nreg):
    own = mod._go

    def go(kernel, grid, args, consts):
        if kernel is mod._k_rows_across and not SMOKE:
            consts = dict(consts, maxnreg=nreg)
        return own(kernel, grid, args, consts)

    mod._go = go
    return mod


def main():
    from gpu_run import graph_ms, load

    t0 = time.time()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}")
    print("op | point | shipped us | n64 us | c8n128 us | n64/shipped | c8n128/shipped | bits (n64, c8n128)")
    for op, call in CALLS.items():
        path = Path(f"generated/cuda/{op}.py")
        mods = {"shipped": load(path), "n64": capped(load(path), 64), "c8n128": capped(load(path), 128)}
        mods["c8n128"].ROW_ACROSS_PACK_CHUNKS = 8
        for M, N in POINTS:
            g = torch.Generator(device=DEV).manual_seed(0)
            x = (torch.randn(M, N, device=DEV, generator=g) * 2).to(torch.bfloat16)
            w = (torch.rand(N, device=DEV, generator=g) + 0.5).to(torch.bfloat16)
            b = torch.randn(N, device=DEV, generator=g).to(torch.bfloat16)
            ys = {k: call(m, x, w, b) for k, m in mods.items()}
            bits = "".join("T" if torch.equal(ys[k], ys["shipped"]) else "F" for k in ("n64", "c8n128"))
            ts = {k: float("nan") if SMOKE else graph_ms(lambda m=m: call(m, x, w, b)) * 1e3 for k, m in mods.items()}
            print(f"{op} | bf16 {M}x{N} | {ts['shipped']:.1f} | {ts['n64']:.1f} | {ts['c8n128']:.1f} | "
                  f"{ts['n64'] / ts['shipped']:.3f} | {ts['c8n128'] / ts['shipped']:.3f} | {bits}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
