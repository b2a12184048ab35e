"""Run 160 (prepared in stop 50, for the next session): the chunk walks' group loads at constant offsets
from one 64-bit base a group (addr: _scratch/v_addr, a text patch of generated/cuda by
_scratch/addrpatch.py) and, besides, the loads of the groups that end inside their chunk masked by the
rows alone (addr2: _scratch/v_addr64, the modules built by branch addr64's templates, both changes).
Static counts (scripts/kernel_sass.py, sm_90, bf16): argmax's unmasked group loop 180 -> 155 -> 140
instructions, sum's 88 -> 77 -> 58, logsumexp's 275 -> 262 -> 245. Run 159 found bf16 argmax bound by
instruction issue. Points where a walk runs (rows past the row kernel's bounds, or ops without one);
every variant compared bit for bit with the shipped module (the same loads and combines), and the
shipped one with float64 / torch's indices.

    python3 _scratch/run160.py            # GPU
    TRITON_INTERPRET=1 python3 _scratch/run160.py --smoke
"""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
VARIANTS = {"shipped": "generated/cuda", "addr": "_scratch/v_addr/cuda", "addr2": "_scratch/v_addr64/cuda"}
POINTS = {  # op -> (rows, reduce length): walks (argmax / argmin everywhere; the others past their held rows)
    "argmax": [(1, 32000), (256, 16384), (4096, 8192), (4096, 16384), (16384, 4096), (1024, 151936)],
    "argmin": [(4096, 16384), (1024, 151936)],
    "sum": [(1, 32000), (256, 32000), (4096, 32000), (1024, 151936)],
    "mean": [(4096, 32000)],
    "amax": [(4096, 32000), (1024, 151936)],
    "logsumexp": [(32, 32000), (4096, 32000), (1024, 151936)],
    "softmax": [(32, 151936), (1024, 151936)],
    "log_softmax": [(1024, 151936)],
}
if SMOKE:
    POINTS = {op: [(3, 5000)] for op in ("argmax", "sum", "logsumexp", "softmax")}


def main():
    import ops_bench
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    refs = ops_bench._ops()
    names = list(VARIANTS)
    print("op dtype M N | " + " | ".join(f"{k} us" for k in names) + " | addr/shipped | addr2/shipped | "
          "shipped accurate | variants' bits = shipped | invariant")
    for op, pts in POINTS.items():
        ref = refs[op]
        fns = {k: getattr(load(Path(f"{d}/{op}.py")), op) for k, d in VARIANTS.items()}
        for dt in (torch.bfloat16, torch.float32):
            for m, n in pts:
                x, w, b = ops_bench._inputs(ref, dt, m, n, DEV)
                ys = {k: ref.redgen(f, x, w, b) for k, f in fns.items()}
                ys = {k: y[0] if isinstance(y, tuple) else y for k, y in ys.items()}
                want = ref.torch(x.double(), None, None) if op not in ("argmax", "argmin") else getattr(torch, op)(x, dim=-1)
                want = want[0] if isinstance(want, tuple) else want
                try:
                    if op in ("argmax", "argmin"):
                        assert torch.equal(ys["shipped"], want)
                    else:
                        assert_accurate(ys["shipped"], want, dt)
                    acc = True
                except AssertionError:
                    acc = False
                same = all(torch.equal(ys[k], ys["shipped"]) for k in names)
                y0 = ref.redgen(fns["addr2"], ops_bench._row0(x), w, b)
                y0 = y0[0] if isinstance(y0, tuple) else y0
                inv = torch.equal(y0, ys["addr2"][:1])
                ts = {k: float("nan") if SMOKE else graph_ms(lambda f=f: ref.redgen(f, x, w, b)) * 1e3
                      for k, f in fns.items()}
                print(f"{op} {str(dt)[6:]} {m} {n} | " + " | ".join(f"{ts[k]:.2f}" for k in names)
                      + f" | {ts['addr'] / ts['shipped']:.3f} | {ts['addr2'] / ts['shipped']:.3f} | {acc} | {same} | {inv}",
                      flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
