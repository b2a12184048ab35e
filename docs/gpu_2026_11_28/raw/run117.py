"""Run 117: (a) the stack walk at rows of 129-256 (gen117: the launcher's bound LANES, not SHORT_TILE_MAX), forced with
4 and 8 leaves a group, against the TILE walk (the natural call: COLS_STACK_N 128) and torch; (b) at rows of at most 128
on views below COLS_STACK_SMALL columns, blocks of 256 (COLS_STACK_SMALL 0) against the natural 128. Bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "mean": lambda x: torch.mean(x, 1)}
FORCE = dict(COLS_STACK_N=256, COLS_STACK_MIN=0, COLS_STACK_LONG_MIN=0, COLS_STACK_FLAT_MIN=0)
LONG = [(64, 192, 1024), (16, 256, 1024), (32, 256, 1024), (128, 256, 512), (256, 256, 512), (256, 256, 4096),
        (64, 160, 2048), (4096, 256, 64), (1024, 256, 64), (512, 192, 64), (16384, 200, 16), (2048, 256, 16),
        (4096, 160, 8), (1024, 256, 256)]
SMALL = [(2048, 96, 64), (8192, 128, 16), (1024, 128, 32), (128, 128, 1024), (64, 128, 1024), (4096, 96, 8),
         (512, 32, 128), (256, 100, 512)]
VARS = {"stack4": dict(FORCE, COLS_STACK_LEAVES=4, COLS_STACK_WIDE_LEAVES=4, COLS_STACK_FLAT_LEAVES=4),
        "stack8": dict(FORCE, COLS_STACK_LEAVES=8, COLS_STACK_WIDE_LEAVES=8, COLS_STACK_FLAT_LEAVES=8)}
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()

def timed(mod, fn, x, knobs):
    own = {k: getattr(mod, k) for k in knobs}
    for k, w in knobs.items():
        setattr(mod, k, w)
    mod._PLANS.clear()
    try:
        return fn(x, 1), t(lambda: fn(x, 1))
    finally:
        for k, w in own.items():
            setattr(mod, k, w)
        mod._PLANS.clear()

for name in sys.argv[1:]:
    mod = importlib.import_module(f"gen117.cuda.{name}")
    fn = getattr(mod, name)
    for dt in (torch.bfloat16, torch.float32):
        for part, pts in (("long", LONG), ("small", SMALL)):
            for (M, N, K) in pts:
                torch.manual_seed(0)
                x = torch.randn(M, N, K, device="cuda", dtype=dt)
                want = fn(x, 1)
                res = {"torch": t(lambda: OPS[name](x)), "nat": t(lambda: fn(x, 1))}
                ok = True
                for v, knobs in (VARS.items() if part == "long" else {"b256": dict(COLS_STACK_SMALL=0)}.items()):
                    got, res[v] = timed(mod, fn, x, knobs)
                    ok &= torch.equal(got, want)
                on = mod._cols_stack(M, N, K)
                walk = (f"stack{mod._stack_leaves(M, N, K)}/{mod._walk_block(M, N, K)}" if on else "tile")
                walk += "/flat" if on and mod._cols_flat(M, N, K) else ""
                best = min(res, key=lambda k: res[k] if k != "torch" else 1e9)
                print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:15} bits {'EQUAL' if ok else 'DIFFER'} | "
                      + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                      + f" | best {best} torch/best {res['torch'] / res[best]:.2f} [{time.time() - t0:.0f}s]", flush=True)
