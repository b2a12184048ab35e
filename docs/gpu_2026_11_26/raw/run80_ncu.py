"""Run 80 (ncu): softmax_held / log_softmax_held bf16 4096 x 28000, across (shipped) and own form."""
import os, sys
sys.path.insert(0, os.getcwd())
import torch
import importlib
op, form = sys.argv[1], sys.argv[2]
m = importlib.import_module(f"generated.cuda.{op}")
if form == "own":
    m.ROW_ACROSS_PAD, m.ROW_ACROSS_MIN, m.ROW_ACROSS_WORDS = 0, 1 << 62, 1 << 30
x = torch.randn(4096, 28000, device="cuda").to(torch.bfloat16)
f = getattr(m, op)
for _ in range(3):
    f(x, -1)
torch.cuda.synchronize()
