"""Run 179: the cols kernels in 8 warps (the spec's 4; the rows kernels unchanged). Bits against the
shipped module, row 0 alone, times, torch."""
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
BF, F32 = torch.bfloat16, torch.float32
CALLS = {
    "var": (lambda m, x, t: m.var(x, 1), lambda x, t: torch.var(x, 1)),
    "logsumexp": (lambda m, x, t: m.logsumexp(x, 1), lambda x, t: torch.logsumexp(x, 1)),
    "cross_entropy": (lambda m, x, t: m.cross_entropy(x, t, 1), lambda x, t: F.cross_entropy(x, t, reduction="none")),
    "softmax": (lambda m, x, t: m.softmax(x, 1), lambda x, t: torch.softmax(x, 1)),
    "sum": (lambda m, x, t: m.sum(x, 1), lambda x, t: torch.sum(x, 1)),
    "argmax": (lambda m, x, t: m.argmax(x, 1), lambda x, t: torch.argmax(x, 1)),
}
POINTS = {
    "var": [(64, 40000, 64), (256, 40000, 64), (64, 40000, 16), (2, 65536, 64)],
    "logsumexp": [(64, 32000, 16), (8, 32000, 4)],
    "cross_entropy": [(64, 40000, 16)],
    "softmax": [(64, 40000, 16)],
    "sum": [(64, 40000, 16), (256, 4096, 64)],
    "argmax": [(64, 40000, 16)],
}


def with_warps(mod, w):
    own = mod._schedule

    def sched(*a):
        r = list(own(*a))
        if r[2] == "cols":
            r[5] = w
        return tuple(r)

    mod._schedule = sched
    return mod


def main():
    from gpu_run import copy_bandwidth, graph_ms, load

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    print("op | point | torch us | w4 us | w8 us | w8/w4 | w4/torch | w8/torch | bits | row alone")
    for op, (call, tcall) in CALLS.items():
        path = Path(f"generated/cuda/{op}.py")
        m4, m8 = load(path), with_warps(load(path), 8)
        for shape in (POINTS[op] if not SMOKE else [(2, 33000, 3)]):
            for dt in (BF, F32):
                g = torch.Generator(device=DEV).manual_seed(0)
                x = (torch.randn(*shape, device=DEV, generator=g) * 3).to(dt)
                t = torch.randint(0, shape[1], (shape[0], shape[2]), device=DEV, generator=g)
                a, b = call(m4, x, t), call(m8, x, t)
                bits = torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))
                alone = torch.equal(call(m8, x[:1], t[:1])[:1], b[:1])
                t4 = float("nan") if SMOKE else graph_ms(lambda: call(m4, x, t)) * 1e3
                t8 = float("nan") if SMOKE else graph_ms(lambda: call(m8, x, t)) * 1e3
                tt = float("nan") if SMOKE else graph_ms(lambda: tcall(x, t)) * 1e3
                print(f"{op} | {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.1f} | {t4:.1f} | {t8:.1f} | "
                      f"{t8 / t4:.3f} | {t4 / tt:.3f} | {t8 / tt:.3f} | {bits} | {alone}", flush=True)
                del x, a, b
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
