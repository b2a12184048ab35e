"""Run 113: vector_norm's spec tile K 16 (shipped) against 32 (sum's), the TILE walk at longer rows: generated/
against gen113/k32 (built from the spec with K = 32), natural calls, bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

PTS = [(16, 2048, 2048), (32, 1024, 2048), (64, 512, 1024), (128, 300, 512), (1024, 512, 64), (8, 96, 4096),
       (16, 4096, 1024), (256, 256, 512), (16, 128, 1024), (2048, 8, 1024)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
mod, k32 = importlib.import_module("generated.cuda.vector_norm"), importlib.import_module("gen113.k32.cuda.vector_norm")
for dt in (torch.bfloat16, torch.float32):
    for (M, N, K) in PTS:
        torch.manual_seed(0)
        x = torch.randn(M, N, K, device="cuda", dtype=dt)
        ok = torch.equal(mod.vector_norm(x, 1), k32.vector_norm(x, 1))
        res = {"torch": t(lambda: torch.linalg.vector_norm(x, dim=1)), "k16": t(lambda: mod.vector_norm(x, 1)),
               "k32": t(lambda: k32.vector_norm(x, 1))}
        print(f"vector_norm {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {str(mod._schedule(M, N, K)[2:4]):14} "
              f"{str(k32._schedule(M, N, K)[2:4]):14} bits {'EQUAL' if ok else 'DIFFER'} | "
              + " ".join(f"{k} {v:.1f}" for k, v in res.items()) + f" | k16/k32 {res['k16'] / res['k32']:.2f} [{time.time() - t0:.0f}s]",
              flush=True)
