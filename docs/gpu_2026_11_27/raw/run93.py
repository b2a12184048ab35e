"""Run 93: rows (K == 1) of at most 128 elements held by the row kernel in TILE lanes, more rows a
program (_scratch/gen93: ROWS_TILE_ELEMS and ROW_WARP_LANES swept) against the modules of 9f81f7a
(generated/) and torch; bits."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton
import torch.nn.functional as F

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

W = {}
def w(n, dt):
    if (n, dt) not in W:
        W[n, dt] = (torch.randn(n, device="cuda", dtype=dt), torch.randn(n, device="cuda", dtype=dt))
    return W[n, dt]

OPS = {
    "softmax_held": (lambda f, x: f(x, -1), lambda x: torch.softmax(x, -1)),
    "log_softmax_held": (lambda f, x: f(x, -1), lambda x: torch.log_softmax(x, -1)),
    "rms_norm": (lambda f, x: f(x, w(x.shape[-1], x.dtype)[0]),
                 lambda x: F.rms_norm(x, (x.shape[-1],), w(x.shape[-1], x.dtype)[0], 1e-6)),
    "layer_norm": (lambda f, x: f(x, *w(x.shape[-1], x.dtype)),
                   lambda x: F.layer_norm(x, (x.shape[-1],), *w(x.shape[-1], x.dtype), 1e-5)),
    "var_held": (lambda f, x: f(x, -1), lambda x: torch.var(x, -1)),
}
PTS = [(1024, 8), (16384, 8), (65536, 8), (16384, 32), (65536, 64), (4096, 100), (65536, 128)]
# (ROWS_TILE_ELEMS, ROW_WARP_LANES): 2048 elements in 16 warps (the launcher's), 8 and 4 warps; 4096 in 16
VARIANTS = [(2048, 128), (2048, 256), (2048, 512), (4096, 256)]
only = sys.argv[1:]
print(torch.cuda.get_device_name(), flush=True)
for name, (call, tcall) in OPS.items():
    if only and name not in only:
        continue
    fo = getattr(importlib.import_module(f"generated.cuda.{name}"), name)
    mod = importlib.import_module(f"gen93.cuda.{name}")
    fn = getattr(mod, name)
    for dt in (torch.bfloat16, torch.float32):
        for M, N in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, device="cuda", dtype=dt)
            outs = lambda y: y if isinstance(y, tuple) else (y,)
            ref = outs(call(fo, x))
            res = {"torch": t(lambda: tcall(x)), "before": t(lambda: call(fo, x))}
            ok = True
            for e, rwl in VARIANTS:
                mod.ROWS_TILE_ELEMS, mod.ROW_WARP_LANES = e, rwl
                ok &= all(torch.equal(a, b) for a, b in zip(outs(call(fn, x)), ref, strict=True))
                res[f"{e}/{rwl}"] = t(lambda: call(fn, x))
            mod.ROWS_TILE_ELEMS, mod.ROW_WARP_LANES = 2048, 128
            print(f"{name:16} {str(dt)[6:]:8} {M} x {N}: bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()), flush=True)
