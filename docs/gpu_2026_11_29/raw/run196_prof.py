"""Run 196: one call of softmax's fused walk (rows of 151936) for ncu; argv: dtype rows."""
import sys, importlib
import torch
sys.path.insert(0, ".")
mod = importlib.import_module("generated.cuda.softmax")
dt = {"bf16": torch.bfloat16, "f32": torch.float32}[sys.argv[1]]
x = (torch.randn(int(sys.argv[2]), 151936, device="cuda") * 3).to(dt)
for _ in range(3):
    y = mod.softmax(x, 1)
torch.cuda.synchronize()
print(mod._schedule(x.shape[0], 151936, 1, x.element_size()))
