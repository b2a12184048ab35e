import importlib.util, sys, os
os.environ["TRITON_INTERPRET"] = "1"
import torch
from pathlib import Path
ROOT = Path.cwd()
def load(path, name):
    s = importlib.util.spec_from_file_location(name, path); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); return m
def call(op, fn, x, g):
    n = x.shape[-1]
    w = torch.randn(n, generator=g).to(x.dtype); b = torch.randn(n, generator=g).to(x.dtype); r = torch.randn(x.shape, generator=g).to(x.dtype)
    if op == "rms_norm": return fn(x, w, eps=1e-6)
    if op == "add_rms_norm": return fn(x, r, w, eps=1e-6)
    if op == "layer_norm": return fn(x, w, b, eps=1e-5)
    return fn(x, -1)
bad = 0
for op in sys.argv[1].split(","):
    base = getattr(load(ROOT / f"generated/cuda/{op}.py", op + "_base"), op)
    vs = {v: getattr(load(ROOT / f"_scratch/r225/{v}/{op}.py", f"{op}_{v}"), op) for v in ("wg2", "wg4")}
    for (m, n) in [(3, 4096), (2, 8192), (5, 1000), (2, 2304), (3, 3000), (1, 12000)]:
        for dt in (torch.bfloat16, torch.float32):
            g = torch.Generator().manual_seed(m * n)
            x = torch.randn(m, n, generator=g).to(dt)
            ref = call(op, base, x, torch.Generator().manual_seed(1))
            ref = ref if isinstance(ref, tuple) else (ref,)
            for v, fn in vs.items():
                o = call(op, fn, x, torch.Generator().manual_seed(1)); o = o if isinstance(o, tuple) else (o,)
                ok = all(torch.equal(a, b) for a, b in zip(o, ref))
                bad += not ok
                print(op, v, m, n, dt, "equal" if ok else "DIFFERS", flush=True)
print("bad", bad)
