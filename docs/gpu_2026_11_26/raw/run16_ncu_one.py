import sys, torch
sys.path.insert(0, "benchmarks"); sys.path.insert(0, ".")
from gpu_run import load
from pathlib import Path
op, path, dt, shape = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
dt = {"bf16": torch.bfloat16, "f32": torch.float32}[dt]
x = torch.randn(*map(int, shape.split("x")), device="cuda", dtype=dt)
f = getattr(torch, op) if path == "torch" else getattr(load(Path(path)), op)
for _ in range(4):
    f(x, 1)
torch.cuda.synchronize()
