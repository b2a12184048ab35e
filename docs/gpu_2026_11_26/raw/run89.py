"""Run 89 (run 88 again, the final column blocks): the cols kernels' TILE walk as built (generated/) against the modules before it
(_scratch/gen_prev: git HEAD c4219c8), bits compared at every point; torch in the same run."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=30) * 1e3

OPS = {
    "sum": lambda x: torch.sum(x, dim=1), "amax": lambda x: torch.amax(x, dim=1),
    "nansum": lambda x: torch.nansum(x, dim=1),
    "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1),
}
PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128)]
print(torch.cuda.get_device_name(), flush=True)
print("| op | dtype | M x N x K | torch us | before | now | bits |")
for name, tcall in OPS.items():
    fo = getattr(importlib.import_module(f"gen_prev.cuda.{name}"), name)
    fn = getattr(importlib.import_module(f"generated.cuda.{name}"), name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            a, b = fo(x, 1), fn(x, 1)
            same = torch.equal(a, b)
            print(f"| {name} | {str(dt)[6:]} | {M} x {N} x {K} | {t(lambda: tcall(x)):.1f} | {t(lambda: fo(x, 1)):.1f} | "
                  f"{t(lambda: fn(x, 1)):.1f} | {'equal' if same else 'DIFFER'} |", flush=True)
