"""Run 135: can the in-program split of K cost nothing at large M? nested (shipped SPLIT path) vs
one loop with a branch (V3) or selects (V4); bits of all three equal."""
import importlib.util, sys, time, torch
sys.path.insert(0, ".")
from generated.cuda import matmul as mm
CPU = not torch.cuda.is_available()
dev = "cpu" if CPU else "cuda"
def load(name):
    spec = importlib.util.spec_from_file_location(name, f"_scratch/r132/matmul_{name}.py")
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
V = {"nested": mm, "v3": load("v3"), "v4": load("v4")}
def t(fn):
    if CPU:
        s = time.time(); fn(); return time.time() - s
    from triton.testing import do_bench_cudagraph
    return do_bench_cudagraph(fn, rep=25)
def call(mod, cfg, chunk, a, b):
    save = mod.REGIMES, mod.SPLIT, mod.CHUNK
    mod.REGIMES = {a.dtype: ((None, *cfg),)}
    mod.SPLIT, mod.CHUNK = chunk is not None, chunk or (1 << 30)
    try: return mod._run(a, b)
    finally: mod.REGIMES, mod.SPLIT, mod.CHUNK = save
print(torch.cuda.get_device_name() if not CPU else "cpu", flush=True)
bad = 0
SH = ((4096, 4096), (14336, 4096), (4096, 14336)) if not CPU else ((200, 64),)
for K, N in SH:
    for M in ((2048, 8192) if not CPU else (70,)):
        a = torch.randn(M, K, device=dev).bfloat16()
        b = torch.randn(N, K, device=dev).bfloat16().t()
        for cfg in ((128, 256, 8, 8, 3), (128, 128, 8, 4, 4), (128, 128, 8, 8, 3)) if not CPU else ((64, 64, 8, 4, 4),):
            tn = t(lambda: call(mm, cfg, None, a, b))
            out = [f"none {tn*1e3:7.1f}"]
            for chunk in ((1024, 2048) if not CPU else (64, 128)):
                ref = call(mm, cfg, chunk, a, b)
                for name, mod in V.items():
                    eq = torch.equal(call(mod, cfg, chunk, a, b), ref); bad += not eq
                    ts = t(lambda: call(mod, cfg, chunk, a, b))
                    out.append(f"{name}@{chunk} {ts*1e3:7.1f} ({tn/ts:4.2f}){'' if eq else ' DIFF'}")
            print(f"K={K:5d} N={N:5d} M={M:5d} {cfg[0]}x{cfg[1]} w{cfg[3]} s{cfg[4]}: " + " | ".join(out), flush=True)
print("bits differ:", bad)
