"""Run 177c: the generator's modules (the across form's packed loads, ROW_ACROSS_PACK_LANES, and the
rows walks' ROWS_NARROW_WARPS) against the shipped ones at points run 177b did not time: bits equal,
row 0 alone, times, torch."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
NEW = "_scratch/r177/build2/cuda"
EPS = 1e-6
BF, F16, F32 = torch.bfloat16, torch.float16, torch.float32

CALLS = {
    "sum": (lambda m, x, t: m.sum(x, 1), lambda x, t: torch.sum(x, 1)),
    "amax": (lambda m, x, t: m.amax(x, 1), lambda x, t: torch.amax(x, 1)),
    "var": (lambda m, x, t: m.var(x, 1), lambda x, t: torch.var(x, 1)),
    "logsumexp": (lambda m, x, t: m.logsumexp(x, 1), lambda x, t: torch.logsumexp(x, 1)),
    "argmax": (lambda m, x, t: m.argmax(x, 1), lambda x, t: torch.argmax(x, 1)),
    "softmax": (lambda m, x, t: m.softmax(x, 1), lambda x, t: torch.softmax(x, 1)),
    "log_softmax": (lambda m, x, t: m.log_softmax(x, 1), lambda x, t: torch.log_softmax(x, 1)),
    "cross_entropy": (lambda m, x, t: m.cross_entropy(x, t, 1), lambda x, t: F.cross_entropy(x, t, reduction="none")),
    "rms_norm": (lambda m, x, t: m.rms_norm(x, t, eps=EPS), lambda x, t: F.rms_norm(x, x.shape[-1:], t, EPS)),
}
POINTS_D = [
    ("logsumexp", BF, 1, 151936), ("logsumexp", BF, 8, 151936), ("logsumexp", BF, 27, 151936),
    ("logsumexp", BF, 4096, 32000), ("argmax", BF, 64, 32000), ("argmax", BF, 128, 32000),
    ("argmax", BF, 256, 16384), ("softmax", BF, 16, 65536), ("softmax", BF, 64, 65536),
    ("softmax", BF, 4, 151936), ("var", BF, 16, 65536), ("cross_entropy", BF, 128, 32000),
    ("cross_entropy", BF, 64, 32000), ("sum", BF, 128, 32000), ("log_softmax", BF, 1024, 151936),
]
POINTS = [
    ("sum", BF, 4096, 32000), ("sum", BF, 1, 32000), ("amax", BF, 1024, 151936),
    ("var", BF, 2048, 65536), ("var", BF, 64, 65536),
    ("logsumexp", BF, 1, 151936), ("logsumexp", BF, 32, 151936), ("logsumexp", F16, 4096, 32000),
    ("argmax", BF, 1, 151936), ("argmax", BF, 8, 32000), ("argmax", BF, 256, 151936),
    ("softmax", BF, 4, 151936), ("log_softmax", BF, 1024, 151936), ("log_softmax", BF, 256, 151936),
    ("cross_entropy", BF, 1024, 151936), ("cross_entropy", BF, 32, 151936),
    ("rms_norm", BF, 1024, 65536), ("logsumexp", F32, 4096, 32000),
]


def first(y):
    return y[0] if isinstance(y, tuple) else y


def same(a, b):
    a, b = first(a), first(b)
    return a.shape == b.shape and torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    print("op | point | torch us | shipped us | new us | new/shipped | new/torch | new % copy | bits | row alone")
    mods = {}
    points = POINTS_D if "D" in sys.argv else POINTS
    for op, dt, M, N in (points if not SMOKE else [(p[0], p[1], 2, 33000) for p in points if p[3] > 32768][:4]):
        if op not in mods:
            mods[op] = (load(Path(f"generated/cuda/{op}.py")), load(Path(f"{NEW}/{op}.py")))
        old, new = mods[op]
        call, tcall = CALLS[op]
        g = torch.Generator(device=DEV).manual_seed(0)
        x = (torch.randn(M, N, device=DEV, generator=g) * 3).to(dt)
        t = (torch.rand(N, device=DEV, generator=g) + 0.5).to(dt) if op == "rms_norm" else \
            torch.randint(0, N, (M,), device=DEV, generator=g)
        a, b = call(old, x, t), call(new, x, t)
        bits = same(a, b)
        alone = same(call(new, x[:1], t if op == "rms_norm" else t[:1])[:1], first(b)[:1])
        to = float("nan") if SMOKE else graph_ms(lambda: call(old, x, t)) * 1e3
        tn = float("nan") if SMOKE else graph_ms(lambda: call(new, x, t)) * 1e3
        tt = float("nan") if SMOKE else graph_ms(lambda: tcall(x, t)) * 1e3
        out = first(b)
        nbytes = x.numel() * x.element_size() + out.numel() * out.element_size()
        pct = 100 * nbytes / 1e9 / (tn * 1e-6) / cbw
        print(f"{op} | {str(dt)[6:]} {M}x{N} | {tt:.1f} | {to:.1f} | {tn:.1f} | {tn / to:.3f} | {tn / tt:.3f} | "
              f"{pct:.0f}% | {bits} | {alone}", flush=True)
        del x, a, b
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
