"""Run 109: the stack walk's loads widened through _rg_f32 (a bfloat16 by a shift of its bits; gen109/y, built
from the working tree) against the modules of run 108 (generated/), natural calls, bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "mean": lambda x: torch.mean(x, 1), "nansum": lambda x: torch.nansum(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "amax": lambda x: torch.amax(x, 1)}
PTS = [(1024, 128, 1024), (128, 128, 1024), (64, 128, 1024), (96, 96, 1024), (192, 100, 1000), (4096, 64, 128),
       (512, 32, 128), (65536, 8, 2), (8192, 16, 8), (2048, 32, 16), (4096, 64, 4), (16384, 8, 64), (1024, 128, 32),
       (4096, 96, 8), (4096, 128, 8), (2048, 64, 8), (4096, 64, 512), (4096, 16, 256)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"gen109.y.cuda.{name}"), importlib.import_module(f"generated.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    for dt in ((torch.bfloat16, torch.float16) if name in ("nansum", "vector_norm") else (torch.bfloat16,)):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            x[0, N // 2, 0] = float("nan") if name == "nansum" else x[0, N // 2, 0]
            ok = torch.equal(fn(x, 1), fp(x, 1))
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            walk = "stack" if mod._cols_stack(M, N, K) else "tile"
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:6} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f} [{time.time() - t0:.0f}s]",
                  flush=True)
