"""Run 123: the shipped modules (generated/, the stack walk DEPTH 2 at rows of 257-512 in f32) against 4b57231's
(gen123prev) and torch, natural calls; bits compared with the previous modules at every point."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=10) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1),
       "amin": lambda x: torch.amin(x, 1), "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1),
       "mean": lambda x: torch.mean(x, 1)}
DEEP = [(256, 400, 512), (256, 300, 512), (1024, 300, 256), (64, 384, 2048), (8192, 300, 32), (4096, 400, 16),
        (128, 300, 128), (64, 512, 256), (256, 512, 1024)]
SAME = [(1024, 128, 32), (4096, 80, 64), (256, 256, 4096), (16, 64, 1024)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen123prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    for dt in (torch.float32, torch.bfloat16):
        for (M, N, K) in DEEP + SAME:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            if name == "nansum":
                x[x > 2.5] = float("nan")
            ok = torch.equal(fn(x, 1), fp(x, 1))
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            isz = x.element_size()
            walk = (f"stack{mod._stack_leaves(M, N, K)}/d{mod._stack_depth(N)}/s{mod._stack_split(M, N, K, isz)}"
                    f"/b{mod._walk_block(M, N, K, isz)}") if mod._cols_stack(M, N, K, isz) else "tile"
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):16} {walk:18} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | prev/new {res['prev'] / res['new']:.2f} torch/new {res['torch'] / res['new']:.2f} [{time.time() - t0:.0f}s]", flush=True)
