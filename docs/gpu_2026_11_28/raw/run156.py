"""Run 156 (stop 50): the shipped argmax walk in wider tiles (the module's LANES and UNROLL set: an
order-free combiner's result does not depend on its lanes; fused and split walks both take them),
against the shipped call and torch, f32 and bf16,
rows 1-16384 x 4096-151936. Every result compared with torch's (exact), row 0 alone with row 0 in
the batch; bandwidth (bytes read) against the copy bandwidth (read + write) of the same run."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
VARIANTS = {"shipped": (256, 8), "l512u8": (512, 8), "l1024u4": (1024, 4), "l2048u2": (2048, 2), "l1024u2": (1024, 2)}


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    pts = [(1, 4096), (1, 32000), (1, 151936), (32, 8192), (32, 32000), (32, 151936), (256, 4096), (256, 16384),
           (256, 151936), (4096, 4096), (4096, 8192), (4096, 16384), (4096, 32000), (16384, 4096), (16384, 16384),
           (1024, 151936)]
    if SMOKE:
        pts = [(3, 5000)]
    names = list(VARIANTS)
    print("op dtype M N | " + " | ".join(f"{k} us" for k in names) + " | torch us | best/shipped | best % copy | exact | invariant")
    for op in ("argmax",):
        mods = {}
        for k, (lanes, unroll) in VARIANTS.items():
            mod = load(Path(f"generated/cuda/{op}.py"))
            mod.LANES, mod.UNROLL = lanes, unroll
            mods[k] = getattr(mod, op)
        ref = getattr(torch, op)
        comp = None
        for dt in (torch.float32, torch.bfloat16):
            for m, n in pts:
                x = torch.randn(m, n, device=DEV).to(dt)
                want = ref(x, dim=1)
                exact, inv, ts = True, True, {}
                for name, f in mods.items():
                    exact &= torch.equal(f(x, dim=1), want)
                    inv &= torch.equal(f(x[:1], dim=1), f(x, dim=1)[:1])
                    ts[name] = float("nan") if SMOKE else graph_ms(lambda f=f: f(x, dim=1)) * 1e3
                tt = float("nan") if SMOKE else graph_ms(lambda: ref(x, dim=1)) * 1e3
                best = min(ts, key=ts.get)
                gbs = x.numel() * x.element_size() / (ts[best] * 1e-6) / 1e9
                print(f"{op} {str(dt)[6:]} {m} {n} | " + " | ".join(f"{ts[k]:.2f}" for k in names)
                      + f" | {tt:.2f} | {ts[best] / ts['shipped']:.3f} ({best}) | {100 * gbs / cbw:.0f}% | {exact} | {inv}",
                      flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
