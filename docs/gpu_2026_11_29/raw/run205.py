"""Run 205: argmax's bf16 rows held with their loads widened by a shift of their bits (_rg_f32: the
compiler cannot run the pair combine on packed 16-bit pairs through it), on grids of at most ROW_ROWS
rows (v/: ROW_ITEMSIZE 0) against the module as built (bf16 rows walked in chunks). Bits against it
and torch, row 0 alone against row 0 in the batch, GPU time (CUDA graphs)."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "_scratch/r205")
from gpu_run import graph_ms

print(f"device: {torch.cuda.get_device_name()}")
print("| dtype | M x N | built path | built us | held (widened) us | built / held | torch us | bits |")
print("|---|---|---|---|---|---|---|---|")
ship = importlib.import_module("generated.cuda.argmax")
var = importlib.import_module("v.argmax")
for dt, rows in ((torch.bfloat16, (1, 32, 256, 1024)), (torch.float32, (1, 1024))):
    for N in (4096, 8192, 12000, 16384):
        for M in rows:
            x = torch.randn(M, N, device="cuda").to(dt)
            if M > 2:
                x[1, N // 3] = float("nan")
                x[2] = 1.0
            y0, y = ship.argmax(x, 1), var.argmax(x, 1)
            bits = torch.equal(y, y0) and torch.equal(y, torch.argmax(x, 1)) and torch.equal(var.argmax(x[:1], 1), y[:1])
            ts, tv = graph_ms(lambda: ship.argmax(x, 1)), graph_ms(lambda: var.argmax(x, 1))
            tt = graph_ms(lambda: torch.argmax(x, 1))
            s = ship._schedule(M, N, 1, x.element_size())
            path = s[2] if s[2] == "row" else f"{s[2]} {'split' if s[6] else 'fused'}"
            print(f"| {str(dt)[6:]} | {M} x {N} | {path} | {ts*1e3:.2f} | {tv*1e3:.2f} | {ts/tv:.3f} | {tt*1e3:.2f} | {'equal' if bits else 'DIFFER'} |", flush=True)
