"""Run 151 (prepared in stop 49, for the next session): the row kernel's loads at latency-bound
points against Liger-Kernel, by the spec's reduce tile. Runs 146-148 found that a tile of 256 lanes
over 128 threads loads 4 bytes a thread of bf16 (Liger 16), and that no launch knob widens it
without losing. A wider tile (`tile N = 512` or `1024`: another order, proved by its own
certificate; the variant modules are built from _scratch/v_tile/s*/ into _scratch/v_tile/g*/)
gives each thread more lanes a tile at the same warps. Each variant is checked against float64 and
for row 0 alone against row 0 in the batch, bit for bit, at every point.

    python3 _scratch/run151.py            # GPU (Liger's wheel installed: see run147's command)
    TRITON_INTERPRET=1 python3 _scratch/run151.py --smoke
"""
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
OPS = ("rms_norm", "add_rms_norm", "layer_norm", "softmax")
HELD = {"softmax": "softmax_held"}
DTS = (torch.bfloat16, torch.float32)
MS = (1, 3) if SMOKE else (1, 32, 256, 4096)
NS = (1100,) if SMOKE else (4096, 8192, 16384)
QUICK = "--quick" in sys.argv  # the latency-bound bf16 points alone, three variants (a short device budget)
if QUICK:
    OPS, DTS, MS, NS = ("rms_norm", "add_rms_norm", "layer_norm"), (torch.bfloat16,), (1, 32, 256), (4096, 8192)
# name -> (folder of the generated modules, knobs)
VARIANTS = {
    "t256": ("generated", {}),
    "t512": ("_scratch/v_tile/g512", {}),
    "t512_wl256": ("_scratch/v_tile/g512", {"ROW_WARP_LANES": 256}),
    "t1024": ("_scratch/v_tile/g1024", {}),
    "t1024_wl256": ("_scratch/v_tile/g1024", {"ROW_WARP_LANES": 256}),
}


if QUICK:
    VARIANTS = {k: v for k, v in VARIANTS.items() if k in ("t256", "t512", "t1024")}


def _mods(op):
    from pathlib import Path

    from gpu_run import load

    mod = HELD.get(op, op)
    out = {}
    for name, (folder, knobs) in VARIANTS.items():
        m = load(Path(f"{folder}/cuda/{mod}.py"))
        for k, v in knobs.items():
            setattr(m, k, v)
        out[name] = getattr(m, mod)
    return out


def _first(r):
    return r[0] if isinstance(r, tuple) else r


def _points(op):
    return [(dt, m, n) for dt in DTS for n in NS for m in MS]


def _warm(op):
    import ops_bench

    ref = ops_bench._ops()[op]
    fns = _mods(op)
    for dt, m, n in _points(op):
        x, w, b = ops_bench._inputs(ref, dt, m, n, DEV)
        for f in fns.values():
            ref.redgen(f, x, w, b)
            ref.redgen(f, ops_bench._row0(x), w, ops_bench._row0(b))
    return op


def main():
    import ops_bench
    from gpu_run import graph_ms
    from tests.tolerances import assert_accurate

    t0 = time.time()
    if SMOKE:
        _warm("add_rms_norm")
    else:
        with ProcessPoolExecutor(4, mp_context=__import__("multiprocessing").get_context("spawn")) as ex:
            list(ex.map(_warm, OPS))
        print(f"warmed in {time.time() - t0:.0f} s", flush=True)
    refs = ops_bench._ops()
    liger = {} if SMOKE else ops_bench._peers(["liger"]).get("liger", {})
    names = list(VARIANTS)
    print("op dtype M N | " + " | ".join(names) + " | liger | accurate | invariant | best/t256 | best vs liger")
    for op in OPS:
        ref = refs[op]
        fns = _mods(op)
        for dt, m, n in _points(op):
            x, w, b = ops_bench._inputs(ref, dt, m, n, DEV)
            want = _first(ref.torch(x.double(), None if w is None else w.double(), None if b is None else b.double()))
            acc, inv, ts = [], [], []
            for f in fns.values():
                y = _first(ref.redgen(f, x, w, b))
                try:
                    assert_accurate(y, want, dt)
                    acc.append(True)
                except AssertionError:
                    acc.append(False)
                y0 = _first(ref.redgen(f, ops_bench._row0(x), w, ops_bench._row0(b)))
                inv.append(torch.equal(y0, y[:1]))
                ts.append(float("nan") if SMOKE else graph_ms(lambda f=f: ref.redgen(f, x, w, b)) * 1e3)
            tl = float("nan") if SMOKE or op not in liger else graph_ms(lambda: liger[op](x, w, b)) * 1e3
            best = min(ts) if not SMOKE else float("nan")
            who = names[ts.index(best)] if not SMOKE else "-"
            print(f"{op} {str(dt)[6:]} {m} {n} | " + " | ".join(f"{t:.2f}" for t in ts)
                  + f" | {tl:.2f} | {all(acc)} | {all(inv)} | {best / ts[0]:.3f} ({who}) | {tl / best:.3f}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
