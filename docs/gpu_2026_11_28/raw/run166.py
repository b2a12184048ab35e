"""Run 166 (prepared in stop 51 for the next session): branch smfold-mapped (_scratch/v_fold6, its generated modules):
softmax, log_softmax and cross_entropy fold too; their cols output sweeps at COLS_SWEEP_UNROLL 1, the cols tile at most
4096 elements (BLOCK_K 8 at 512 lanes). Shipped = main (logsumexp folded already). softmax_stats' chunk walks fold UNROLL groups (branch smfold: _scratch/v_fold, its generated
modules) against shipped (main, branch addr64 merged). The fold changes
the bits: its accuracy against float64, its batch invariance (row 0 alone and half the batch against the
whole; a row in the cols kernel, K > 1, against the rows kernel) and each point's time, rows (dim -1) and
cols (dim 1 of [M, N, K]).

    python3 _scratch/run162.py            # GPU
    TRITON_INTERPRET=1 python3 _scratch/run162.py --smoke
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
VARIANTS = {"shipped": "generated/cuda", "fold": "_scratch/v_fold6/cuda"}  # shipped: main with addr64 merged
ROWS = {
    "softmax": [(4096, 8192), (4096, 32000), (32, 65536), (1024, 65536), (32, 151936), (256, 151936), (1024, 151936)],
    "log_softmax": [(4096, 32000), (32, 65536), (256, 151936), (1024, 151936)],
    "cross_entropy": [(32, 32000), (4096, 32000), (1024, 151936)],
}
COLS = {  # [M, N, K] reduced over N
    "softmax": [(8, 65536, 4), (4, 151936, 8), (64, 40000, 16), (2, 65536, 64)],
    "log_softmax": [(8, 65536, 4), (64, 40000, 16)],
    "cross_entropy": [(8, 32000, 4), (64, 40000, 16)],
    "logsumexp": [(64, 32000, 16)],
}
if SMOKE:
    ROWS = {"logsumexp": [(3, 17000)], "softmax": [(2, 33000)], "cross_entropy": [(3, 5000)]}
    COLS = {"logsumexp": [(2, 17000, 3)], "softmax": [(2, 33000, 3)], "cross_entropy": [(2, 5000, 3)]}


def _call(mod, op, x, t=None, dim=-1):
    f = getattr(mod, op)
    if op == "cross_entropy":
        return f(x, t, dim=1)
    return f(x, dim=dim)


def _ref(op, x, t=None, dim=-1):
    xd = x.double()
    if op == "logsumexp":
        return torch.logsumexp(xd, dim=dim)
    if op == "softmax":
        return torch.softmax(xd, dim=dim)
    if op == "log_softmax":
        return torch.log_softmax(xd, dim=dim)
    return torch.nn.functional.cross_entropy(xd, t, reduction="none")


def main():
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    names = list(VARIANTS)
    print("op layout dtype shape | torch us | " + " | ".join(f"{k} us" for k in names)
          + " | fold/shipped | fold % copy | fold accurate | fold invariant")
    cases = [(op, "rows", p) for op, ps in ROWS.items() for p in ps] + [(op, "cols", p) for op, ps in COLS.items() for p in ps]
    mods = {}
    for op, layout, shape in cases:
        if op not in mods:
            mods[op] = {k: load(Path(f"{d}/{op}.py")) for k, d in VARIANTS.items()}
        ms = mods[op]
        for dt in (torch.bfloat16, torch.float32):
            g = torch.Generator(device=DEV).manual_seed(0)
            if layout == "rows":
                m, n = shape
                x = (torch.randn(m, n, device=DEV, generator=g) * 3).to(dt)
                dim = -1
            else:
                m, n, k = shape
                x = (torch.randn(m, n, k, device=DEV, generator=g) * 3).to(dt)
                dim = 1
            t = None
            if op == "cross_entropy":
                t = torch.randint(0, x.shape[1], (x.shape[0],) + tuple(x.shape[2:]), device=DEV, generator=g)
            ys = {kk: _call(md, op, x, t, dim) for kk, md in ms.items()}
            try:
                assert_accurate(ys["fold"], _ref(op, x, t, dim), dt)
                acc = "ok"
            except AssertionError as e:
                acc = "FAIL " + str(e).splitlines()[0][:50]
            yf = ys["fold"]
            inv = True
            for part in (x[:1], x[: max(1, x.shape[0] // 2)]):
                tp = t[: part.shape[0]] if t is not None else None
                inv = inv and torch.equal(_call(ms["fold"], op, part.contiguous(), tp, dim), yf[: part.shape[0]])
            if layout == "cols":  # column k of batch b as a row of the rows kernel
                rows = x.transpose(1, 2).reshape(-1, x.shape[1]).contiguous()
                yr = _call(ms["fold"], op, rows, t.reshape(-1) if t is not None else None, -1)
                yc = yf.transpose(1, 2).reshape(-1, x.shape[1]) if op in ("softmax", "log_softmax") else yf.reshape(-1)
                inv = inv and torch.equal(yr, yc)
            ts = {kk: float("nan") if SMOKE else graph_ms(lambda md=md: _call(md, op, x, t, dim)) * 1e3
                  for kk, md in ms.items()}
            tt = float("nan") if SMOKE else graph_ms(lambda: _ref_torch(op, x, t, dim)) * 1e3
            nbytes = x.numel() * x.element_size() * (2 if op in ("softmax", "log_softmax") else 1)
            pct = nbytes / (ts["fold"] * 1e-6) / 1e9 / cbw * 100
            print(f"{op} {layout} {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.2f} | "
                  + " | ".join(f"{ts[kk]:.2f}" for kk in names)
                  + f" | {ts['fold'] / ts['shipped']:.3f} | {pct:.0f} | {acc} | {inv}",
                  flush=True)
    print(f"took {time.time() - t0:.0f} s")


def _ref_torch(op, x, t, dim):
    if op == "logsumexp":
        return torch.logsumexp(x, dim=dim)
    if op == "softmax":
        return torch.softmax(x, dim=dim)
    if op == "log_softmax":
        return torch.log_softmax(x, dim=dim)
    return torch.nn.functional.cross_entropy(x, t, reduction="none")


if __name__ == "__main__":
    main()
