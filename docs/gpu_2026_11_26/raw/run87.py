"""Run 87 (run 86 continued, the other ops): the cols kernels' TILE walk of short rows (N <= 128), shipped modules (generated/) against
the new ones (_scratch/gen86), bits compared; knob sweep (COLS_TILE_MIN, COLS_TILE_BLOCK); torch."""
import sys, importlib, itertools
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=40) * 1e3

OPS = {  # name: (module, call(mod, x), torch)
    "sum": ("sum", lambda f, x: f(x, dim=1), lambda x: torch.sum(x, dim=1)),
    "mean": ("mean", lambda f, x: f(x, dim=1), lambda x: torch.mean(x, dim=1)),
    "amax": ("amax", lambda f, x: f(x, dim=1), lambda x: torch.amax(x, dim=1)),
    "argmax": ("argmax", lambda f, x: f(x, dim=1), lambda x: torch.argmax(x, dim=1)),
    "amin": ("amin", lambda f, x: f(x, dim=1), lambda x: torch.amin(x, dim=1)),
    "nansum": ("nansum", lambda f, x: f(x, dim=1), lambda x: torch.nansum(x, dim=1)),
    "softmax_held": ("softmax_held", lambda f, x: f(x, dim=1), lambda x: torch.softmax(x, dim=1)),
    "var_held": ("var_held", lambda f, x: f(x, dim=1), lambda x: torch.var(x, dim=1)),
    "vector_norm": ("vector_norm", lambda f, x: f(x, dim=1), lambda x: torch.linalg.vector_norm(x, dim=1)),
}
PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128)]
VARIANTS = [("m8", 8, 1 << 30), ("m8b64", 8, 64), ("m8b128", 8, 128)]
only = sys.argv[1].split(",") if len(sys.argv) > 1 else list(OPS)
print(torch.cuda.get_device_name(), flush=True)
for name in only:
    modname, call, tcall = OPS[name]
    old = importlib.import_module(f"generated.cuda.{modname}")
    new = importlib.import_module(f"gen86.cuda.{modname}")
    fo, fn = getattr(old, modname), getattr(new, modname)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            if name in ("softmax_held",) and M * N * K > 2**27:
                continue
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            ref = call(fo, x)
            res = {"torch": t(lambda: tcall(x)), "ship": t(lambda: call(fo, x))}
            ok = True
            for vn, mn, bl in VARIANTS:
                new.COLS_TILE_MIN, new.COLS_TILE_BLOCK = mn, bl
                y = call(fn, x)
                ok &= torch.equal(y, ref) or (torch.isnan(y).any() and torch.equal(torch.nan_to_num(y), torch.nan_to_num(ref)))
                res[vn] = t(lambda: call(fn, x))
            new.COLS_TILE_MIN, new.COLS_TILE_BLOCK = 16, 128
            # the new module with the TILE walk off (COLS_TILE_MAX 0): its bits too
            new.COLS_TILE_MAX = 0
            ok &= torch.equal(call(fn, x), ref)
            new.COLS_TILE_MAX = 128
            print(f"{name:12} {str(dt)[6:]:8} {M}x{N}x{K}: bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()), flush=True)
