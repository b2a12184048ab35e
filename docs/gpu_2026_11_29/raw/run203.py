"""Run 203: argmax and argmin's rows of 4096-16384 held by the row kernel (plan.py's ROW_ONCE_COMBINERS
with argmax/argmin, position-reading specs allowed there, not across: `v/`) against the shipped chunked
walks (the split path where it fits). Bits against the shipped module and torch, row 0 alone against
row 0 in the batch, GPU time (CUDA graphs), % of the copy bandwidth."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "_scratch/r203")
from gpu_run import graph_ms, copy_bandwidth

print(f"device: {torch.cuda.get_device_name()}")
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s")
print("| op | dtype | M x N | shipped path | shipped us | held us | shipped / held | torch us | held % copy | bits |")
print("|---|---|---|---|---|---|---|---|---|---|")
for op, rows in (("argmax", (1, 32, 256, 1024, 4096, 16384)), ("argmin", (1, 256, 16384))):
    ship = importlib.import_module(f"generated.cuda.{op}")
    var = importlib.import_module(f"v.{op}")
    for dt in (torch.float32, torch.bfloat16):
        for N in (4096, 8192, 12000, 16384):
            for M in rows:
                x = torch.randn(M, N, device="cuda").to(dt)
                x[0, N // 3] = float("nan") if M > 2 else x[0, N // 3]
                f = lambda m: getattr(m, op)(x, 1)
                y0, y = f(ship), f(var)
                ref = getattr(torch, op)(x, 1)
                alone = getattr(var, op)(x[:1], 1)
                bits = torch.equal(y, y0) and torch.equal(y, ref) and torch.equal(alone, y[:1])
                ts, tv = graph_ms(lambda: f(ship)), graph_ms(lambda: f(var))
                tt = graph_ms(lambda: getattr(torch, op)(x, 1))
                s = ship._schedule(M, N, 1, x.element_size())
                path = f"{s[2]} {'split' if s[6] else 'fused'}"
                pct = M * N * x.element_size() / (tv * 1e-3) / 1e9 / bw * 100
                print(f"| {op} | {str(dt)[6:]} | {M} x {N} | {path} | {ts*1e3:.2f} | {tv*1e3:.2f} | {ts/tv:.3f} | {tt*1e3:.2f} | {pct:.0f}% | {'equal' if bits else 'DIFFER'} |", flush=True)
                del x
