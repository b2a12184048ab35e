"""Run 102. (a) The stack walk in groups of STACK leaves a loop iteration (gen102: the working tree's
templates, COLS_STACK_LEAVES a knob) forced at rows up to 128, L = 1, 2, 4, 8, against the TILE walk of
the same module, the shipped modules' natural call (generated/: the rule as shipped, COLS_STACK_N 64)
and torch; vector_norm with the stack too (gen102's plan without the helper exclusion). (b) argmax at
rows of 300-8192: the cols walk in TILE lanes x BLOCK columns x warps (launcher patched) against the
natural call and torch. Every variant compared bit for bit with the shipped natural call."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {
    "sum": lambda x: torch.sum(x, 1), "mean": lambda x: torch.mean(x, 1), "nansum": lambda x: torch.nansum(x, 1),
    "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "amax": lambda x: torch.amax(x, 1),
    "amin": lambda x: torch.amin(x, 1), "argmax": lambda x: torch.argmax(x, 1),
}
PTS = [(1024, 128, 1024), (8, 96, 4096), (256, 100, 1000), (64, 128, 1024), (16, 128, 1024), (32, 128, 128),
       (4096, 64, 512), (16, 32, 8192), (2048, 8, 1024), (4096, 16, 256), (4096, 64, 128), (16384, 8, 64)]
FULL = ("sum", "vector_norm", "amax")  # every point; the others at the first six
LONG = [(64, 512, 1024), (1024, 512, 64), (128, 300, 512), (256, 1024, 256), (16, 4096, 1024), (32, 2048, 2048),
        (4, 8192, 4096)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
t0 = time.time()

def line(name, dt, shape, res, ok, extra=""):
    best = min((v, k) for k, v in res.items() if k not in ("torch",))
    print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, shape)):16} bits {'EQUAL' if ok else 'DIFFER'} | "
          + " ".join(f"{k} {v:.1f}" for k, v in res.items())
          + f" | best {best[1]} torch/best {res['torch'] / best[0]:.2f} torch/prev {res['torch'] / res['prev']:.2f}{extra}",
          flush=True)

for name in [a for a in sys.argv[1:] if a != "argmax"]:
    mod, prev = importlib.import_module(f"gen102.cuda.{name}"), importlib.import_module(f"generated.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS if name in FULL else PTS[:6]:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            want = fp(x, 1)
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1))}
            ok = True
            for v in ("tile", 1, 2, 4, 8):
                kn = dict(COLS_STACK_MIN=1 << 62) if v == "tile" else dict(COLS_STACK_MIN=0, COLS_STACK_K=0, COLS_STACK_N=128,
                                                                           COLS_STACK_LEAVES=v)
                own = {k: getattr(mod, k) for k in kn}
                for k, w in kn.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), want)
                res[f"L{v}" if v != "tile" else v] = t(lambda: fn(x, 1))
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            line(name, dt, (M, N, K), res, ok, f" | shipped {'stack' if getattr(prev, '_cols_stack', lambda *a: False)(M, N, K) else 'tile'} [{time.time() - t0:.0f}s]")

if "argmax" in sys.argv[1:]:
    mod = importlib.import_module("generated.cuda.argmax")
    sched, tile, free = mod._schedule, mod._tile, mod._free_cols
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in LONG:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            want = mod.argmax(x, 1)
            res = {"torch": t(lambda: torch.argmax(x, 1)), "prev": t(lambda: mod.argmax(x, 1))}
            ok = torch.equal(want, torch.argmax(x, 1))
            split = sched(M, N, K)[6]
            for T in (1, 4, 8, 16):
                for (B, W) in ((128, 4), (256, 4), (256, 8), (512, 8)):
                    def s2(M, N, K, B=B, W=W):
                        r = list(sched(M, N, K))
                        if r[2] == "cols":
                            r[3], r[4], r[5] = B, M * -(-K // B), W
                        return tuple(r)
                    mod._schedule, mod._tile, mod._free_cols = s2, (lambda N, T=T: T), (lambda M, N, K: False)
                    mod._PLANS.clear()
                    ok &= torch.equal(mod.argmax(x, 1), want)
                    res[f"T{T}B{B}W{W}"] = t(lambda: mod.argmax(x, 1))
                    mod._schedule, mod._tile, mod._free_cols = sched, tile, free
                    mod._PLANS.clear()
            line("argmax", dt, (M, N, K), res, ok, f" | split {split} [{time.time() - t0:.0f}s]")
