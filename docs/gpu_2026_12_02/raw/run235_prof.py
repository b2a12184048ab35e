"""Run 235: ncu of the 16-bit walks still below 90% of the copy bandwidth (diagnosis only).
    python prof.py MODULE M N"""
import importlib.util, sys
import torch
name, M, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = importlib.util.spec_from_file_location(name, f"generated/cuda/{name}.py")
m = importlib.util.module_from_spec(s); sys.modules[name] = m; s.loader.exec_module(m)
x = torch.randn(M, N, device="cuda").to(torch.bfloat16)
fn = lambda: getattr(m, name)(x, -1)
for _ in range(4):
    fn()
torch.cuda.synchronize()
