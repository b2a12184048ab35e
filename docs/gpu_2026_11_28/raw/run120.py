"""Run 120: the stack walk's leaves in SPLIT runs on views of fewer than COLS_STACK_SPLIT_COLS columns (gen120) against
commit 6f907ab's modules (gen120prev) and torch: natural calls, and gen120 with the stack forced (every column minimum
0) where the natural call walks TILE lanes. Bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=12) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1)}
A = [(128, 128, 1024), (64, 128, 1024), (1024, 128, 32), (2048, 96, 64), (8192, 128, 16), (4096, 96, 8), (512, 32, 128),
     (4096, 64, 4), (16, 64, 1024), (192, 100, 1000)]
B = [(64, 160, 2048), (128, 200, 1024), (8, 256, 8192), (1024, 256, 64), (256, 256, 512), (16, 256, 1024),
     (4096, 160, 8), (16, 128, 1024), (32, 96, 1024)]
FORCE = dict(COLS_STACK_MIN=0, COLS_STACK_LONG_MIN=0, COLS_STACK_FLAT_MIN=0, COLS_STACK_LONGER_MIN=0)
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"gen120.cuda.{name}"), importlib.import_module(f"gen120prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in A + B:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            want = fp(x, 1)
            ok = torch.equal(fn(x, 1), want)
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            walk = f"stack{mod._stack_leaves(M, N, K)}/s{mod._stack_split(M, N, K)}/b{mod._walk_block(M, N, K)}" if mod._cols_stack(M, N, K) else "tile"
            if walk == "tile":
                own = {k: getattr(mod, k) for k in FORCE}
                for k, w in FORCE.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), want)
                res["forced"] = t(lambda: fn(x, 1))
                walk += f"|s{mod._stack_split(M, N, K)}/b{mod._walk_block(M, N, K)}"
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            best = min((k for k in res if k != "torch"), key=res.get)
            print(f"{name:7} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):16} {walk:18} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | prev/new {res['prev'] / res['new']:.2f} best {best} torch/best {res['torch'] / res[best]:.2f} [{time.time() - t0:.0f}s]", flush=True)
