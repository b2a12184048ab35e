"""Run 204: argmax and argmin as built (rows of 4096-16384 held on grids of at most ROW_ROWS rows of
32-bit elements) against the modules of the commit before (old/, git show HEAD) and torch. Bits new ==
old == torch, row 0 alone == row 0 in the batch, GPU time (CUDA graphs)."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "_scratch/r204")
from gpu_run import graph_ms, copy_bandwidth

print(f"device: {torch.cuda.get_device_name()}")
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s")
print("| op | dtype | M x N | path | before us | new us | before / new | torch us | bits |")
print("|---|---|---|---|---|---|---|---|---|")
bad = 0
for op in ("argmax", "argmin"):
    new = importlib.import_module(f"generated.cuda.{op}")
    old = importlib.import_module(f"old.{op}")
    for dt, Ns, rows in ((torch.float32, (4096, 8192, 12000, 16384), (1, 32, 256, 1024, 1025, 4096)),
                         (torch.bfloat16, (8192, 16384), (1, 1024, 16384))):
        for N in Ns:
            for M in rows:
                x = torch.randn(M, N, device="cuda").to(dt)
                if M > 2:
                    x[1, N // 3] = float("nan")
                    x[2] = 1.0
                f = lambda m: getattr(m, op)(x, 1)
                yn, yo = f(new), f(old)
                ref = getattr(torch, op)(x, 1)
                alone = getattr(new, op)(x[:1], 1)
                bits = torch.equal(yn, yo) and torch.equal(yn, ref) and torch.equal(alone, yn[:1])
                bad += not bits
                to, tn = graph_ms(lambda: f(old)), graph_ms(lambda: f(new))
                tt = graph_ms(lambda: getattr(torch, op)(x, 1))
                s = new._schedule(M, N, 1, x.element_size())
                path = s[2] if s[2] == "row" else f"{s[2]} {'split' if s[6] else 'fused'}"
                print(f"| {op} | {str(dt)[6:]} | {M} x {N} | {path} | {to*1e3:.2f} | {tn*1e3:.2f} | {to/tn:.3f} | {tt*1e3:.2f} | {'equal' if bits else 'DIFFER'} |", flush=True)
                del x
print(f"points whose bits differ: {bad}")
