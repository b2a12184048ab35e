"""Run 161: softmax_stats' rows walks fold a lane's UNROLL group (smfold: _scratch/v_smfold, a text patch
of branch addr64's modules by _scratch/smfold.py: the group's max, one rescale of the state, one exp an
element) against shipped (main) and addr2 (branch addr64). smfold changes the bits: its accuracy against
float64 and its batch invariance (row 0 alone against the batch; the split path against the fused one)
are checked here.

    python3 _scratch/run161.py            # GPU
    TRITON_INTERPRET=1 python3 _scratch/run161.py --smoke
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
VARIANTS = {"shipped": "generated/cuda", "addr2": "_scratch/v_addr64/cuda", "smfold": "_scratch/v_smfold/cuda"}
POINTS = {
    "logsumexp": [(32, 32000), (4096, 8192), (16384, 4096 + 1024), (4096, 32000), (256, 151936), (1024, 151936)],
    "softmax": [(32, 32000), (4096, 8192), (4096, 32000), (32, 151936), (256, 151936), (1024, 151936)],
    "log_softmax": [(4096, 8192), (4096, 32000), (256, 151936), (1024, 151936)],
}
if SMOKE:
    POINTS = {op: [(3, 5000), (1, 9000)] for op in ("logsumexp", "softmax")}


def main():
    import ops_bench
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    refs = ops_bench._ops()
    names = list(VARIANTS)
    print("op dtype M N | torch us | " + " | ".join(f"{k} us" for k in names)
          + " | addr2/shipped | smfold/shipped | smfold % copy | accurate (shipped, smfold) | smfold invariant")
    for op, pts in POINTS.items():
        ref = refs[op]
        fns = {k: getattr(load(Path(f"{d}/{op}.py")), op) for k, d in VARIANTS.items()}
        for dt in (torch.bfloat16, torch.float32):
            for m, n in pts:
                x, w, b = ops_bench._inputs(ref, dt, m, n, DEV)
                ys = {k: ref.redgen(f, x, w, b) for k, f in fns.items()}
                ys = {k: y[0] if isinstance(y, tuple) else y for k, y in ys.items()}
                want = ref.torch(x.double(), None, None)
                want = want[0] if isinstance(want, tuple) else want
                acc = []
                for k in ("shipped", "smfold"):
                    try:
                        assert_accurate(ys[k], want, dt)
                        acc.append("ok")
                    except AssertionError as e:
                        acc.append("FAIL " + str(e).splitlines()[0][:60])
                inv = True
                for rows in (x[:1], x[: max(1, m // 2)]):
                    y0 = ref.redgen(fns["smfold"], rows.contiguous(), w, b)
                    y0 = y0[0] if isinstance(y0, tuple) else y0
                    inv = inv and torch.equal(y0, ys["smfold"][: rows.shape[0]])
                ts = {k: float("nan") if SMOKE else graph_ms(lambda f=f: ref.redgen(f, x, w, b)) * 1e3
                      for k, f in fns.items()}
                tt = float("nan") if SMOKE else graph_ms(lambda: ref.torch(x, w, b)) * 1e3
                nbytes = x.numel() * x.element_size() * (1 if op == "logsumexp" else 2)
                pct = nbytes / (ts["smfold"] * 1e-6) / 1e9 / cbw * 100
                print(f"{op} {str(dt)[6:]} {m} {n} | {tt:.2f} | " + " | ".join(f"{ts[k]:.2f}" for k in names)
                      + f" | {ts['addr2'] / ts['shipped']:.3f} | {ts['smfold'] / ts['shipped']:.3f} | {pct:.0f}"
                      + f" | {', '.join(acc)} | {inv}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
