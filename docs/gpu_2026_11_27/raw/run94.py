"""Run 94: the shipped modules (generated/, this change) at short rows against torch, bits against run 93's
modules at their shipped variant (ROWS_TILE_ELEMS 2048, ROW_TILE_WARP_LANES 256)."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

OPS = {"softmax": lambda x: torch.softmax(x, -1), "log_softmax": lambda x: torch.log_softmax(x, -1),
       "var": lambda x: torch.var(x, -1)}
print(torch.cuda.get_device_name(), flush=True)
for name, tcall in OPS.items():
    fn = getattr(importlib.import_module(f"generated.cuda.{name}"), name)
    held = importlib.import_module(f"gen93.cuda.{name}_held")
    held.ROW_WARP_LANES = 256  # run 93's shipped variant (2048 elements, 8 warps)
    fh = getattr(held, f"{name}_held")
    for dt in (torch.bfloat16, torch.float32):
        for M, N in ((1024, 8), (65536, 8), (65536, 64), (65536, 128)):
            torch.manual_seed(0)
            x = torch.randn(M, N, device="cuda", dtype=dt)
            ok = torch.equal(fn(x, -1), fh(x, -1))
            print(f"{name:12} {str(dt)[6:]:8} {M} x {N}: bits {'EQUAL' if ok else 'DIFFER'} | torch {t(lambda: tcall(x)):.1f} "
                  f"redgen {t(lambda: fn(x, -1)):.1f}", flush=True)
