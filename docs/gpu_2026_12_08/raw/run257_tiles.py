"""Run 257 (prepared, not run): the spec's reduce tile (lanes, order-shaping) 256 as shipped against 512 and 1024 (variant builds), with
Liger beside: GPU time from CUDA graphs; each variant's row 0 alone against row 0 in the batch (bitwise) and its error
against float64 beside the shipped module's."""
import sys, time
import torch
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "docs/gpu_2026_12_08/raw")
from gpu_run import graph_ms
from peers import liger_ops, mod
DT = {"f32": torch.float32, "bf16": torch.bfloat16}
LG = liger_ops()
SMALL = [(1, 4096), (32, 4096), (256, 4096), (1, 8192), (32, 8192), (256, 8192), (32, 16384), (256, 16384)]
BIG = [(4096, 4096), (16384, 4096), (4096, 8192), (16384, 8192), (4096, 16384)]
OPS = ("add_rms_norm", "layer_norm", "rms_norm", "softmax_held")
PTS = ([(op, "bf16", m, n) for op in OPS for m, n in SMALL] + [(op, "f32", m, n) for op in OPS for m, n in SMALL]
       + [(op, dt, m, n) for dt in ("bf16", "f32") for op in OPS for m, n in BIG])
def first(y):
    return (y[1] if len(y) == 2 else y[0]) if isinstance(y, tuple) else y  # add_rms_norm: (h, y); layer_norm: (y, mean, rstd)
print("device", torch.cuda.get_device_name(), flush=True)
t0 = time.time()
for op, dt, m, n in PTS:
    if time.time() - t0 > 290:
        print("out of time"); break
    g = torch.Generator("cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[dt]); w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt]); r = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
    a = {"softmax_held": (x, -1), "rms_norm": (x, w), "layer_norm": (x, w, b), "add_rms_norm": (x, r, w)}[op]
    ref = {"softmax_held": lambda: torch.softmax(x.double(), -1),
           "rms_norm": lambda: x.double() * torch.rsqrt(x.double().pow(2).mean(-1, keepdim=True) + 1e-6) * w.double(),
           "layer_norm": lambda: torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(), 1e-5),
           "add_rms_norm": lambda: (lambda h: h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double())(x.double() + r.double())}[op]()
    line, notes = {}, []
    for name, path in (("256", f"generated/cuda/{op}.py"), ("512", f"_scratch/run257/g512/{op}.py"), ("1024", f"_scratch/run257/g1024/{op}.py")):
        f = mod(path, op)
        y = first(f(*a))
        one = first(f(*tuple(t[:1] if torch.is_tensor(t) and t.dim() == 2 else t for t in a)))
        inv = torch.equal(y[:1], one)
        err = (y.double() - ref).abs().max().item()
        line[name] = graph_ms(lambda: f(*a)) * 1e3
        notes.append(f"{name}:{'inv' if inv else 'NOT-INV'} err {err:.1e}")
    la = a[:1] if op == "softmax_held" else a
    line["liger"] = graph_ms(lambda: LG[op](*la)) * 1e3
    print(f"{op} {dt} {m}x{n}: " + " ".join(f"{k} {v:.2f}" for k, v in line.items()) + " | " + "; ".join(notes)
          + f" | {time.time() - t0:.0f}s", flush=True)
