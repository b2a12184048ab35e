"""Run 256 (docs/gpu_2026_12_08/raw/run256.sh): the lane trees' last levels gathered in one exchange (_rg_gather, PAIRS > 1) against the shipped
modules: bits equal (the same pairs), GPU time from CUDA graphs, Liger beside. (Its Liger and module loading moved to peers.py after the run, the same code.)"""
import sys, time
import torch
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "docs/gpu_2026_12_08/raw")
from gpu_run import graph_ms
from peers import liger_ops, mod
DT = {"f32": torch.float32, "bf16": torch.bfloat16}
LG = liger_ops()
SMALL = [(1, 4096), (32, 4096), (256, 4096), (1, 8192), (32, 8192), (256, 8192), (32, 16384), (256, 16384)]
BIG = [(4096, 4096), (16384, 4096), (4096, 8192), (16384, 8192), (4096, 16384), (4096, 32000)]
OPS = ("add_rms_norm", "layer_norm", "rms_norm", "softmax_held", "log_softmax_held", "sum")
PTS = ([(op, "bf16", m, n) for op in OPS for m, n in SMALL] + [(op, "f32", m, n) for op in OPS for m, n in SMALL]
       + [(op, dt, m, n) for dt in ("bf16", "f32") for op in OPS for m, n in BIG])
def same(a, b):
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    bits = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
    return all(torch.equal(p.view(bits[p.element_size()]), q.view(bits[q.element_size()])) for p, q in zip(a, b, strict=True))
print("device", torch.cuda.get_device_name(), flush=True)
t0 = time.time(); limit = float(sys.argv[1]) if sys.argv[1:] else 280
differ = 0
for op, dt, m, n in PTS:
    if time.time() - t0 > limit:
        print("out of time"); break
    g = torch.Generator("cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[dt]); w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt]); r = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
    a = {"softmax_held": (x, -1), "log_softmax_held": (x, -1), "sum": (x, -1), "rms_norm": (x, w), "layer_norm": (x, w, b),
         "add_rms_norm": (x, r, w)}[op]
    base, new = mod(f"generated/cuda/{op}.py", op), mod(f"_scratch/run256/gather/{op}.py", op)
    ok = same(base(*a), new(*a))
    differ += not ok
    line = {"shipped": graph_ms(lambda: base(*a)) * 1e3, "gather": graph_ms(lambda: new(*a)) * 1e3}
    if op in LG:
        la = a[:1] if op == "softmax_held" else a
        line["liger"] = graph_ms(lambda: LG[op](*la)) * 1e3
    print(f"{op} {dt} {m}x{n}: " + " ".join(f"{k} {v:.3f}" for k, v in line.items())
          + f" | gather/shipped {line['gather'] / line['shipped']:.3f} | bits {'equal' if ok else 'DIFFER'} | {time.time() - t0:.0f}s", flush=True)
print("points whose bits differ:", differ)
