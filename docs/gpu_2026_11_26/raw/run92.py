"""Run 92: rows (K == 1) of at most 128 elements walked in TILE lanes, BLOCK rows a program
(_scratch/gen92, ROWS_TILE_ELEMS swept) against the modules of deb327c (generated/) and torch; bits."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=25) * 1e3

OPS = {"sum": lambda x: torch.sum(x, -1), "amax": lambda x: torch.amax(x, -1),
       "argmax": lambda x: torch.argmax(x, -1), "nansum": lambda x: torch.nansum(x, -1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=-1)}
PTS = [(1024, 8), (16384, 8), (1024, 64), (16384, 64), (65536, 64), (4096, 100), (16384, 128), (65536, 128)]
ELEMS = (1024, 2048, 4096, 8192)
print(torch.cuda.get_device_name(), flush=True)
for name, tcall in OPS.items():
    fo = getattr(importlib.import_module(f"generated.cuda.{name}"), name)
    mod = importlib.import_module(f"gen92.cuda.{name}")
    fn = getattr(mod, name)
    for dt in (torch.bfloat16, torch.float32):
        for M, N in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, device="cuda", dtype=dt)
            ref = fo(x, -1)
            res = {"torch": t(lambda: tcall(x)), "before": t(lambda: fo(x, -1))}
            ok = True
            for e in ELEMS:
                mod.ROWS_TILE_ELEMS = e
                ok &= torch.equal(fn(x, -1), ref)
                res[f"e{e}"] = t(lambda: fn(x, -1))
            mod.ROWS_TILE_ELEMS = 2048
            print(f"{name:11} {str(dt)[6:]:8} {M} x {N}: bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()), flush=True)
