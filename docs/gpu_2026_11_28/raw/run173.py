"""Run 173 (stop 52): logsumexp and cross_entropy (softmax_stats folded in groups) with the spec's tile K = 8
(_scratch/lk8) against 16 (shipped): the folded cols partial kernel spilled at 16 (scripts/kernel_sass.py: 320 stack bytes).
Run 170 (stop 52): softmax and log_softmax with the spec's tile K = 16 (the cols kernels' block; _scratch/v_k16)
against 32 (shipped): [512, 32] tiles of a two-component state spilled (scripts/kernel_sass.py: STL/LDL).
Run 168 (stop 52): the final modules (direct partials; cross_entropy folds softmax_stats; nll_loss\ntakes its direct reductions over the whole row) against main before them, and F.cross_entropy through the mode.\nRun 167 (stop 52): cross_entropy and nll_loss with direct partials (generated/cuda) against main before them
(_scratch/v_head) and cross_entropy also folding softmax_stats (_scratch/v_cefold). Below, run 166's docstring:

Run 166 (prepared in stop 51 for the next session): branch smfold-mapped (_scratch/v_fold6, its generated modules):
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
VARIANTS = {"shipped": "generated/cuda", "direct": "_scratch/lk8/out/cuda"}  # "direct": the spec's tile K = 8
ROWS = {}
COLS = {  # [M, N, K] reduced over N
    "logsumexp": [(64, 32000, 16), (64, 40000, 16), (4, 65536, 64), (16, 151936, 32), (256, 40000, 64), (8, 65536, 8)],
    "cross_entropy": [(64, 40000, 16), (4, 65536, 64), (256, 40000, 64)],
}
if SMOKE:
    ROWS = {}
    COLS = {"logsumexp": [(2, 17000, 17)], "cross_entropy": [(2, 5000, 9)]}


def _call(mod, op, x, t=None, dim=-1):
    f = getattr(mod, op)
    if op in ("cross_entropy", "nll_loss"):
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
    if op == "nll_loss":
        return torch.nn.functional.nll_loss(xd, t, reduction="none")
    return torch.nn.functional.cross_entropy(xd, t, reduction="none")


def main():
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    names = list(VARIANTS)
    print("op layout dtype shape | torch us | " + " | ".join(f"{k} us" for k in names)
          + " | direct/shipped | direct % copy | accurate (direct, cefold) | invariant | direct bits == shipped")
    cases = [(op, "rows", p) for op, ps in ROWS.items() for p in ps] + [(op, "cols", p) for op, ps in COLS.items() for p in ps]
    mods = {}
    for op, layout, shape in cases:
        if op not in mods:
            mods[op] = {k: load(Path(f"{d}/{op}.py")) for k, d in VARIANTS.items() if Path(f"{d}/{op}.py").exists()}
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
            if op in ("cross_entropy", "nll_loss"):
                t = torch.randint(0, x.shape[1], (x.shape[0],) + tuple(x.shape[2:]), device=DEV, generator=g)
            ys = {kk: _call(md, op, x, t, dim) for kk, md in ms.items()}
            acc, inv = "", ""
            for vk in [k for k in ms if k != "shipped"]:
                try:
                    assert_accurate(ys[vk], _ref(op, x, t, dim), dt)
                    acc += "ok "
                except AssertionError as e:
                    acc += "FAIL " + str(e).splitlines()[0][:50] + " "
                yf = ys[vk]
                ok = True
                for part in (x[:1], x[: max(1, x.shape[0] // 2)]):
                    tp = t[: part.shape[0]] if t is not None else None
                    ok = ok and torch.equal(_call(ms[vk], op, part.contiguous(), tp, dim), yf[: part.shape[0]])
                if layout == "cols":  # column k of batch b as a row of the rows kernel
                    rows = x.transpose(1, 2).reshape(-1, x.shape[1]).contiguous()
                    if op in ("softmax", "log_softmax"):
                        ok = ok and torch.equal(_call(ms[vk], op, rows, None, -1), yf.transpose(1, 2).reshape(-1, x.shape[1]))
                    else:
                        ok = ok and torch.equal(_call(ms[vk], op, rows, t.reshape(-1) if t is not None else None, -1),
                                                yf.reshape(-1))
                inv += f"{ok} "
            same = torch.equal(ys["direct"], ys["shipped"])
            ts = {kk: float("nan") if SMOKE else graph_ms(lambda md=md: _call(md, op, x, t, dim)) * 1e3
                  for kk, md in ms.items()}
            tt = float("nan") if SMOKE else graph_ms(lambda: _ref_torch(op, x, t, dim)) * 1e3
            nbytes = x.numel() * x.element_size()  # one read
            pct = nbytes / (ts["direct"] * 1e-6) / 1e9 / cbw * 100
            print(f"{op} {layout} {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.2f} | "
                  + " | ".join(f"{ts.get(kk, float('nan')):.2f}" for kk in names)
                  + f" | {ts['direct'] / ts['shipped']:.3f} | {pct:.0f} | {acc}| {inv}| {same}",
                  flush=True)
    print(f"took {time.time() - t0:.0f} s")


def _ref_torch(op, x, t, dim):
    if op == "logsumexp":
        return torch.logsumexp(x, dim=dim)
    if op == "softmax":
        return torch.softmax(x, dim=dim)
    if op == "log_softmax":
        return torch.log_softmax(x, dim=dim)
    if op == "nll_loss":
        return torch.nn.functional.nll_loss(x, t, reduction="none")
    return torch.nn.functional.cross_entropy(x, t, reduction="none")


if __name__ == "__main__":
    main()
