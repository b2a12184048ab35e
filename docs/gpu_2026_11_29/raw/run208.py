"""Run 208: argmax's float16 rows held on grids of at most ROW_BF16_ROWS rows, widened by cvt.f32.f16 in an
asm the compiler cannot narrow through (v/), against the module as built (float16 walked in chunks). Bits
against it and torch, row 0 alone against row 0 in the batch, GPU time (CUDA graphs)."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "_scratch/r208")
from gpu_run import graph_ms

print(f"device: {torch.cuda.get_device_name()}")
print("| dtype | M x N | built us | held us | built / held | torch us | bits |")
print("|---|---|---|---|---|---|---|")
ship = importlib.import_module("generated.cuda.argmax")
var = importlib.import_module("v.argmax")
bad = 0
for dt, rows in ((torch.float16, (1, 32, 256, 1024)), (torch.bfloat16, (1, 256))):
    for N in (4096, 8192, 12000, 16384):
        for M in rows:
            x = torch.randn(M, N, device="cuda").to(dt)
            if M > 2:
                x[1, N // 3] = float("nan")
                x[2] = 1.0
            y0, y = ship.argmax(x, 1), var.argmax(x, 1)
            bits = torch.equal(y, y0) and torch.equal(y, torch.argmax(x, 1)) and torch.equal(var.argmax(x[:1], 1), y[:1])
            bad += not bits
            ts, tv = graph_ms(lambda: ship.argmax(x, 1)), graph_ms(lambda: var.argmax(x, 1))
            tt = graph_ms(lambda: torch.argmax(x, 1))
            print(f"| {str(dt)[6:]} | {M} x {N} | {ts*1e3:.2f} | {tv*1e3:.2f} | {ts/tv:.3f} | {tt*1e3:.2f} | {'equal' if bits else 'DIFFER'} |", flush=True)
print(f"points whose bits differ: {bad}")
