import os, sys, importlib.util
os.environ["TRITON_INTERPRET"] = "1"
from pathlib import Path
import torch
HERE = Path(__file__).resolve().parent
def load(op, v):
    s = importlib.util.spec_from_file_location(f"{op}_{v}", HERE / f"{op}_{v}.py")
    m = importlib.util.module_from_spec(s); sys.modules[s.name] = m; s.loader.exec_module(m); return m
bad = n = 0
for op in ("argmax", "argmin"):
    h, p = load(op, "head"), load(op, "pk")
    for dt in (torch.bfloat16, torch.float16, torch.float32):
        for m_, n_ in ((3, 9000), (5, 4200), (2, 20000)):
            for split in (0, 1 << 62):
                for mod in (h, p):
                    mod.SPLIT_BELOW = split
                    if hasattr(mod, "ROW_ROWS"): mod.ROW_ROWS = 0
                g = torch.Generator().manual_seed(m_ + n_)
                x = torch.randn(m_, n_, generator=g).to(dt)
                x[0, n_ // 3] = float("nan"); x[-1, 5] = x[-1, n_ - 7] = 100.0 if op == "argmax" else -100.0
                x[1] = float("-inf") if op == "argmax" else float("inf")
                a, b = getattr(h, op)(x, -1), getattr(p, op)(x, -1)
                ref = getattr(torch, op)(x.float(), -1)
                n += 1
                if not (torch.equal(a, b) and torch.equal(a, ref)):
                    bad += 1; print("DIFF", op, dt, m_, n_, split, a, b, ref)
print(n, "cases,", bad, "differ")
