"""Run 230: ncu of argmax's bf16 chunk walk (split path, _k_rows_partial0) at 16384 x 8192, as shipped
and with two rows a program (b2); amax's row kernel at the same point for comparison."""
import importlib.util, sys
from pathlib import Path
import torch
HERE = Path(__file__).resolve().parent
which = sys.argv[1]
x = torch.randn(16384, 8192, device="cuda").to(torch.bfloat16)
if which == "amax":
    s = importlib.util.spec_from_file_location("amax", "generated/cuda/amax.py")
    m = importlib.util.module_from_spec(s); sys.modules["amax"] = m; s.loader.exec_module(m)
    fn = lambda: m.amax(x, -1)
else:
    s = importlib.util.spec_from_file_location("am", HERE / "argmax_head.py")
    m = importlib.util.module_from_spec(s); sys.modules["am"] = m; s.loader.exec_module(m)
    if which == "b2":
        orig = m._schedule
        def sched(M, N, K, isz):
            chunk, nch, shape, blk, programs, warps, split, wide = orig(M, N, K, isz)
            if split and shape == "rows":
                blk, programs = 2, -(-M // 2)
            return chunk, nch, shape, blk, programs, warps, split, wide
        m._schedule = sched
    fn = lambda: m.argmax(x, -1)
for _ in range(3):
    fn()
torch.cuda.synchronize()
fn()
torch.cuda.synchronize()
