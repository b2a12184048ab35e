"""Run 99b: the prototype one-lane-a-column pairwise walk of sum (proto_serial.py) against the shipped
sum's cols kernels and torch at rows of at most 128; bits against the shipped module."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton
from proto_serial import serial_sum

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128), (4096, 16, 256), (64, 128, 1024)]
VARS = [(128, 4), (256, 4), (512, 4), (256, 8), (512, 8)]
mod = importlib.import_module("generated.cuda.sum")
print(torch.cuda.get_device_name(), flush=True)
for dt in (torch.bfloat16, torch.float32):
    for (M, N, K) in PTS:
        torch.manual_seed(0)
        x = torch.randn(M, N, K, device="cuda", dtype=dt)
        ref = mod.sum(x, 1)
        res = {"torch": t(lambda: torch.sum(x, 1)), "shipped": t(lambda: mod.sum(x, 1))}
        ok = True
        for b, w in VARS:
            ok &= torch.equal(serial_sum(x, b, w), ref)
            res[f"{b}/{w}"] = t(lambda: serial_sum(x, b, w))
        vs = {k: v for k, v in res.items() if "/" in k}
        best = min(vs, key=vs.get)
        print(f"sum {str(dt)[6:]:8} {M} x {N} x {K}: bits {'EQUAL' if ok else 'DIFFER'} | torch {res['torch']:.1f} "
              f"shipped {res['shipped']:.1f} best {best} {vs[best]:.1f} | " + " ".join(f"{k}={v:.1f}" for k, v in vs.items()),
              flush=True)
