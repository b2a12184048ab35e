"""Run 111: the stack's groups of 8 leaves at rows past COLS_STACK_LONG_N on COLS_STACK_SMALL columns or more
(COLS_STACK_WIDE_LEAVES; generated/, working tree) against the modules before it (gen111prev: commit 605b29a's)
and torch, natural calls, bits compared. The last two points are controls (groups of 4 in both)."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "mean": lambda x: torch.mean(x, 1), "nansum": lambda x: torch.nansum(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "amax": lambda x: torch.amax(x, 1),
       "amin": lambda x: torch.amin(x, 1)}
PTS = [(1024, 128, 1024), (192, 100, 1000), (256, 100, 1000), (512, 96, 512), (2048, 128, 128), (256, 128, 1024),
       (4096, 80, 64), (128, 128, 2048), (64, 96, 4096), (128, 128, 1024), (4096, 64, 512)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen111prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            ok = torch.equal(fn(x, 1), fp(x, 1))
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            leaves = mod._stack_leaves(M, N, K) if mod._cols_stack(M, N, K) else 0
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} leaves {leaves} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f} [{time.time() - t0:.0f}s]",
                  flush=True)
