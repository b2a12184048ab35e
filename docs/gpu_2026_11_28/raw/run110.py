"""Run 110: the stack's group of leaves, 4 (shipped) against 8, at rows of 64-128 (nansum's bf16 loads now
widened by their bits); where the natural call walks TILE lanes, the stack forced at 4 and 8 too."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "mean": lambda x: torch.mean(x, 1), "nansum": lambda x: torch.nansum(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "amax": lambda x: torch.amax(x, 1)}
PTS = [(1024, 128, 1024), (128, 128, 1024), (64, 128, 1024), (96, 96, 1024), (192, 100, 1000), (8, 96, 4096),
       (16, 128, 1024), (4096, 64, 128), (4096, 64, 512), (1024, 128, 32), (4096, 32, 256)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            want = fn(x, 1)
            on = mod._cols_stack(M, N, K)
            res, ok = {"torch": t(lambda: OPS[name](x)), "nat": t(lambda: fn(x, 1))}, True
            force = {} if on else dict(COLS_STACK_MIN=0, COLS_STACK_LONG_MIN=0, COLS_STACK_FLAT_MIN=0)
            for v, kn in (("L8", dict(force, COLS_STACK_LEAVES=8)),) + ((("L4", force),) if force else ()):
                own = {k: getattr(mod, k) for k in kn}
                for k, w in kn.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), want)
                res[v] = t(lambda: fn(x, 1))
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {'stack' if on else 'tile':5} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()) + f" [{time.time() - t0:.0f}s]", flush=True)
