"""Run 177: (A) the row kernel's packed 16-bit loads with a mask whose constancy the compiler sees
(pp < clen // 2, not 2 * pp < clen: the same lanes, 8-byte loads where it issued 4-byte ones), alone and
with ROW_ACROSS_LANES 8 (16-byte loads); (B) the rows walks in 2 and 1 warps (the spec's 4). Every
variant's bits against the shipped module; row 0 alone against row 0 in the batch."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

SMOKE = "--smoke" in sys.argv
PART = next((a for a in sys.argv[1:] if a in ("A", "B")), "AB")
DEV = "cpu" if SMOKE else "cuda"
EPS = 1e-6


def with_warps(mod, w):
    own = mod._schedule

    def sched(*a):
        r = list(own(*a))
        if r[2] == "rows":
            r[5] = w
        return tuple(r)

    mod._schedule = sched
    return mod


def liger():
    try:
        from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        from liger_kernel.ops.softmax import LigerSoftmaxFunction
    except ImportError as e:
        print("liger not importable:", e)
        return {}
    return {
        "softmax_held": lambda x, w, b: LigerSoftmaxFunction.apply(x),
        "rms_norm": lambda x, w, b: LigerRMSNormFunction.apply(x, w, EPS, 0.0, "llama", False),
        "layer_norm": lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, EPS),
        "add_rms_norm": lambda x, w, b: LigerFusedAddRMSNormFunction.apply(x, b, w, EPS, 0.0, "llama", False),
    }


A_CALLS = {
    "softmax_held": (lambda m, x, w, b: m.softmax_held(x, -1), lambda x, w, b: torch.softmax(x, -1)),
    "log_softmax_held": (lambda m, x, w, b: m.log_softmax_held(x, -1), lambda x, w, b: torch.log_softmax(x, -1)),
    "rms_norm": (lambda m, x, w, b: m.rms_norm(x, w, eps=EPS), lambda x, w, b: F.rms_norm(x, x.shape[-1:], w, EPS)),
    "layer_norm": (lambda m, x, w, b: m.layer_norm(x, w, b, eps=EPS)[0],
                   lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, EPS)),
    "add_rms_norm": (lambda m, x, w, b: m.add_rms_norm(x, b, w, eps=EPS),
                     lambda x, w, b: F.rms_norm(x + b, x.shape[-1:], w, EPS)),
}
A_POINTS = [(4096, 16384), (4096, 32000)]
NEW = os.environ.get("NEW")  # run 177b: the generator's module (the rule) against the shipped one

B_CALLS = {
    "logsumexp": (lambda m, x, t: m.logsumexp(x, 1), lambda x, t: torch.logsumexp(x, 1)),
    "argmax": (lambda m, x, t: m.argmax(x, 1), lambda x, t: torch.argmax(x, 1)),
    "cross_entropy": (lambda m, x, t: m.cross_entropy(x, t, 1), lambda x, t: F.cross_entropy(x, t, reduction="none")),
    "softmax": (lambda m, x, t: m.softmax(x, 1), lambda x, t: torch.softmax(x, 1)),
    "log_softmax": (lambda m, x, t: m.log_softmax(x, 1), lambda x, t: torch.log_softmax(x, 1)),
    "var": (lambda m, x, t: m.var(x, 1), lambda x, t: torch.var(x, 1)),
    "sum": (lambda m, x, t: m.sum(x, 1), lambda x, t: torch.sum(x, 1)),
}
B_POINTS = {
    "logsumexp": [(4096, 32000), (1024, 151936)],
    "argmax": [(4096, 16384), (1024, 151936)],
    "cross_entropy": [(4096, 32000)],
    "softmax": [(1024, 151936)],
    "var": [(2048, 65536)],
    "sum": [(4096, 32000)],
}
F32 = {("logsumexp", 4096, 32000), ("argmax", 1024, 151936), ("softmax", 1024, 151936)}


def first(y):
    return y[0] if isinstance(y, tuple) else y


def same(a, b):
    a, b = first(a), first(b)
    return a.shape == b.shape and torch.equal(torch.nan_to_num(a.float(), 7.0), torch.nan_to_num(b.float(), 7.0))


def timed(fn):
    from gpu_run import graph_ms

    return float("nan") if SMOKE else graph_ms(fn) * 1e3


def part_a(cbw, lg):
    from gpu_run import load

    print("\n## A: packed loads (fix: the mask pp < clen // 2; fix8: and ROW_ACROSS_LANES 8)")
    print("op | point | torch us | liger us | shipped us | fix us | fix8 us | fix/shipped | fix8/shipped | "
          "best % copy | best/liger | bits T=equal shipped (fix, fix8) | row alone (shipped, fix, fix8)")
    for op, (call, tcall) in A_CALLS.items():
        mods = {"shipped": load(Path(f"generated/cuda/{op}.py")), "fix": load(Path(f"_scratch/r177/gen/{op}.py")),
                "fix8": load(Path(f"_scratch/r177/gen/{op}.py"))}
        mods["fix8"].ROW_ACROSS_LANES = 8
        if NEW:
            mods = {"shipped": mods["shipped"], "fix": load(Path(f"{NEW}/{op}.py"))}
            mods["fix8"] = mods["fix"]
        for M, N in (A_POINTS if not SMOKE else [(2, 12000)]):
            dt = torch.bfloat16
            g = torch.Generator(device=DEV).manual_seed(0)
            x = (torch.randn(M, N, device=DEV, generator=g) * 2).to(dt)
            w = (torch.rand(N, device=DEV, generator=g) + 0.5).to(dt)
            b = torch.randn(M, N, device=DEV, generator=g).to(dt) if op == "add_rms_norm" else \
                torch.randn(N, device=DEV, generator=g).to(dt)
            ys = {k: call(m, x, w, b) for k, m in mods.items()}
            bits = "".join("T" if same(ys[k], ys["shipped"]) else "F" for k in ("fix", "fix8"))
            xb = b[:1] if op == "add_rms_norm" else b
            alone = "".join("T" if same(first(call(m, x[:1], w, xb))[:1], first(ys[k])[:1]) else "F"
                            for k, m in mods.items())
            ts = {k: timed(lambda m=m: call(m, x, w, b)) for k, m in mods.items() if k != "fix8" or not NEW}
            ts.setdefault("fix8", ts["fix"])
            tt = timed(lambda: tcall(x, w, b))
            tl = timed(lambda: lg[op](x, w, b)) if op in lg else float("nan")
            best = min(ts, key=lambda k: ts[k]) if not SMOKE else "fix"
            nbytes = x.numel() * x.element_size() * (2 if op != "add_rms_norm" else 4)
            pct = 100 * nbytes / 1e9 / (ts[best] * 1e-6) / cbw
            print(f"{op} | bf16 {M}x{N} | {tt:.1f} | {tl:.1f} | {ts['shipped']:.1f} | {ts['fix']:.1f} | "
                  f"{ts['fix8']:.1f} | {ts['fix'] / ts['shipped']:.3f} | {ts['fix8'] / ts['shipped']:.3f} | "
                  f"{best} {pct:.0f}% | {ts[best] / tl:.3f} | {bits} | {alone}", flush=True)
            del x, b, ys


def part_b(cbw):
    from gpu_run import load

    print("\n## B: the rows walks in W warps (w4 = shipped)")
    print("op | point | torch us | w4 us | w2 us | w1 us | w2/w4 | w1/w4 | best % copy (read+write) | "
          "bits T=equal w4 (w2, w1) | row alone (w4, w2, w1)")
    for op, (call, tcall) in B_CALLS.items():
        mods = {f"w{w}": with_warps(load(Path(f"generated/cuda/{op}.py")), w) for w in (4, 2)}
        mods["w1"] = mods["w2"]
        for M, N in (B_POINTS[op] if not SMOKE else [(2, 33000)]):
            F32.add((op, M, N))
            for dt in ((torch.bfloat16, torch.float32) if (op, M, N) in F32 else (torch.bfloat16,)):
                g = torch.Generator(device=DEV).manual_seed(0)
                x = (torch.randn(M, N, device=DEV, generator=g) * 3).to(dt)
                t = torch.randint(0, N, (M,), device=DEV, generator=g)
                ys = {k: call(m, x, t) for k, m in mods.items()}
                bits = "".join("T" if same(ys[k], ys["w4"]) else "F" for k in ("w2", "w1"))
                alone = "".join("T" if same(call(m, x[:1], t[:1])[:1], first(ys[k])[:1]) else "F"
                                for k, m in mods.items())
                ts = {k: timed(lambda m=m: call(m, x, t)) for k, m in mods.items()}
                tt = timed(lambda: tcall(x, t))
                best = min(ts, key=lambda k: ts[k]) if not SMOKE else "w2"
                out = first(ys["w4"])
                nbytes = x.numel() * x.element_size() + out.numel() * out.element_size()
                pct = 100 * nbytes / 1e9 / (ts[best] * 1e-6) / cbw
                print(f"{op} | {str(dt)[6:]} {M}x{N} | {tt:.1f} | {ts['w4']:.1f} | {ts['w2']:.1f} | {ts['w1']:.1f} | "
                      f"{ts['w2'] / ts['w4']:.3f} | {ts['w1'] / ts['w4']:.3f} | {best} {pct:.0f}% | {bits} | {alone}",
                      flush=True)
                del x, ys


def main():
    from gpu_run import copy_bandwidth

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    if "A" in PART:
        part_a(cbw, liger() if not SMOKE else {})
        print(f"A took {time.time() - t0:.0f} s", flush=True)
    if "B" in PART:
        part_b(cbw)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
