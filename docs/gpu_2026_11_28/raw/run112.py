"""Run 112: the launcher as shipped (generated/, commit be911ec) at run 111's points and at rows of 65-128 with
a flat K on many columns: the natural call against the TILE walk forced (every stack threshold past any view)
and torch, bits compared."""
import sys, importlib, time
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1)}
PTS = [(1024, 128, 1024), (192, 100, 1000), (512, 96, 512), (2048, 128, 128), (256, 128, 1024), (64, 96, 4096),
       (4096, 80, 64), (8192, 96, 32), (2048, 128, 64), (16384, 100, 16), (4096, 128, 64), (1024, 96, 64)]
TILE = dict(COLS_STACK_MIN=1 << 62, COLS_STACK_LONG_MIN=1 << 62, COLS_STACK_FLAT_MIN=1 << 62)
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
            res = {"torch": t(lambda: OPS[name](x)), "nat": t(lambda: fn(x, 1))}
            own = {k: getattr(mod, k) for k in TILE}
            for k, w in TILE.items():
                setattr(mod, k, w)
            mod._PLANS.clear()
            ok = torch.equal(fn(x, 1), want)
            res["tile"] = t(lambda: fn(x, 1))
            for k, w in own.items():
                setattr(mod, k, w)
            mod._PLANS.clear()
            on = mod._cols_stack(M, N, K)
            walk = f"stack{mod._stack_leaves(M, N, K)}" if on else "tile"
            walk += "/flat" if on and mod._cols_flat(M, N, K) else ""
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:11} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/nat {res['torch'] / res['nat']:.2f} [{time.time() - t0:.0f}s]", flush=True)
