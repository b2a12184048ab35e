"""Run 148: the row kernel with more threads a tile (run 147 took fewer and lost). ncu (run 146) showed that at
latency-bound points redgen loads 4 bytes a thread of a bf16 tile (8 of f32) where Liger loads 16.
Variants set the modules' knobs (launch shape only: same combines, same order; bits compared
with the shipped call at every point), timed against the shipped call and Liger-Kernel."""
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
DTS = (torch.bfloat16, torch.float32)
MS = (1, 3) if SMOKE else (1, 32, 256, 4096)
NS = (4096, 8192) if not SMOKE else (4096,)
HELD = {"softmax": "softmax_held"}
VARIANTS = {
    "shipped": {},
    "across2": {"ROW_ACROSS_LANES": 2},
    "few8": {"ROW_FEW_WARPS": 8},
    "wl64": {"ROW_WARP_LANES": 64},
    "wl64_across2_few8": {"ROW_WARP_LANES": 64, "ROW_ACROSS_LANES": 2, "ROW_FEW_WARPS": 8},
}


def _mods(op):
    from pathlib import Path

    from gpu_run import load

    out = {}
    mod = HELD.get(op, op)  # the op whose module computes these rows (softmax's short rows)
    for name, knobs in VARIANTS.items():
        m = load(Path(f"generated/cuda/{mod}.py"))
        for k, v in knobs.items():
            setattr(m, k, v)
        out[name] = getattr(m, mod)
    return out


def _same(a, b):
    if isinstance(a, tuple):
        return all(torch.equal(u, v) for u, v in zip(a, b))
    return torch.equal(a, b)


def _points():
    return [(op, dt, m, n) for op in OPS for dt in DTS for n in NS for m in MS]


def _warm(op):
    import ops_bench

    ref = ops_bench._ops()[op]
    fns = _mods(op)
    for _, dt, m, n in [p for p in _points() if p[0] == op]:
        x, w, b = ops_bench._inputs(ref, dt, m, n, DEV)
        for f in fns.values():
            ref.redgen(f, x, w, b)
    return op


def main():
    import ops_bench
    from gpu_run import graph_ms

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
    print("op dtype M N | " + " | ".join(names) + " | liger | bits equal | best/shipped | best vs liger")
    for op in OPS:
        ref = refs[op]
        fns = _mods(op)
        for _, dt, m, n in [p for p in _points() if p[0] == op]:
            x, w, b = ops_bench._inputs(ref, dt, m, n, DEV)
            base = ref.redgen(fns["shipped"], x, w, b)
            eq = all(_same(ref.redgen(f, x, w, b), base) for f in fns.values())
            ts = [float("nan") if SMOKE else graph_ms(lambda f=f: ref.redgen(f, x, w, b)) * 1e3 for f in fns.values()]
            tl = float("nan") if SMOKE or op not in liger else graph_ms(lambda: liger[op](x, w, b)) * 1e3
            best = min(ts)
            print(f"{op} {str(dt)[6:]} {m} {n} | " + " | ".join(f"{t:.2f}" for t in ts)
                  + f" | {tl:.2f} | {eq} | {best / ts[0]:.3f} ({names[ts.index(best)]}) | {tl / best:.3f}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
