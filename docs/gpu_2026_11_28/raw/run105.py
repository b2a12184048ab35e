"""Run 105: where the shipped rule keeps the TILE walk for want of columns (COLS_STACK_MIN, COLS_STACK_LONG_MIN,
FREE_COLS_MIN): the natural call against the walk forced there, at its block and at a block of 128 columns
(more programs), and torch. Bits compared with the natural call at every variant."""
import sys, importlib, time
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "amax": lambda x: torch.amax(x, 1), "mean": lambda x: torch.mean(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "argmax": lambda x: torch.argmax(x, 1)}
PTS = [(4096, 64, 4), (2048, 64, 8), (1024, 32, 16), (256, 16, 64), (128, 128, 1024), (64, 128, 1024), (1024, 128, 32),
       (96, 96, 1024), (16, 128, 1024), (8, 96, 4096)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    free = name.startswith("arg")
    walk = dict(FREE_COLS_MIN=0, FREE_COLS_LONG_MIN=0) if free else dict(COLS_STACK_MIN=0, COLS_STACK_LONG_MIN=0)
    blk = "FREE_COLS_BLOCK" if free else "COLS_STACK_BLOCK"
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            want = fn(x, 1)
            res = {"torch": t(lambda: OPS[name](x)), "new": t(lambda: fn(x, 1))}
            ok = True
            for v, kn in (("walk", walk), ("walk128", dict(walk, **{blk: 128}))):
                own = {k: getattr(mod, k) for k in kn}
                for k, w in kn.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), want)
                res[v] = t(lambda: fn(x, 1))
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            on = mod._free_cols(M, N, K) if free else mod._cols_stack(M, N, K)
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):16} {'walk' if on else 'tile':5} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()) + f" [{time.time() - t0:.0f}s]", flush=True)
