"""Run 119: the cols TILE walk at rows of 129-512 where the stack does not take them (gen119: the built modules with
a variant hook in _schedule): warps and column block (4 warps, 64 columns as built) against 8 warps and 32/64/128
columns, and torch. Bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1)}
PTS = [(64, 160, 2048), (128, 200, 1024), (8, 256, 8192), (64, 192, 1024), (2048, 256, 16), (1024, 256, 64),
       (256, 256, 512), (16, 256, 1024), (128, 300, 128), (64, 512, 256), (16, 512, 1024), (1024, 200, 64),
       (4096, 160, 8), (256, 400, 512)]
VARS = {"w4b32": (4, 32), "w8b64": (8, 64), "w8b32": (8, 32), "w8b128": (8, 128)}
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod = importlib.import_module(f"gen119.cuda.{name}")
    mod._FAST = None
    fn = getattr(mod, name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            mod._VAR = None
            mod._PLANS.clear()
            want = fn(x, 1)
            res = {"torch": t(lambda: OPS[name](x)), "nat": t(lambda: fn(x, 1))}
            sched = mod._schedule(M, N, K)
            ok = True
            for v, var in VARS.items():
                mod._VAR = var
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), want)
                res[v] = t(lambda: fn(x, 1))
            mod._VAR = None
            mod._PLANS.clear()
            best = min((k for k in res if k != "torch"), key=res.get)
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} blk {sched[3]:3} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | best {best} nat/best {res['nat'] / res[best]:.2f} torch/best {res['torch'] / res[best]:.2f} [{time.time() - t0:.0f}s]", flush=True)
