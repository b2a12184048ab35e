"""Run 217: the row kernel's own form (rows of 20000-24576, bf16) under a register cap (maxnreg 168 / 128:
3 or 4 programs an SM where 254 registers allow 2) against the shipped modules; bits compared.
    python bench.py warm|time OP VARIANT"""
import importlib.util, sys
from pathlib import Path
import torch
import torch.nn.functional as F
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402
MODE, OPS, VARS = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
DIRS = {"now": ROOT / "generated/cuda", "mx168": ROOT / "_scratch/r217/mx168", "mx128": ROOT / "_scratch/r217/mx128"}
E = 1e-6
REF = {"softmax_held": ("", lambda x: torch.softmax(x, -1)), "log_softmax_held": ("", lambda x: torch.log_softmax(x, -1)),
       "layer_norm": ("wb", lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5)),
       "rms_norm": ("w", lambda x, w: F.rms_norm(x, x.shape[-1:], w, E))}
POINTS = [(4096, 20000), (16384, 20000), (4096, 24576), (1024, 20000)]

def load(op, v):
    p = DIRS[v] / f"{op}.py"
    s = importlib.util.spec_from_file_location(f"{op}_{v}", p); m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
    return getattr(m, op)

def inputs(op, m, n):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(torch.bfloat16)
    ex = [torch.randn(n, device="cuda", generator=g).to(torch.bfloat16) for _ in REF[op][0]]
    return x, ex

def call(fn, op, x, ex):
    if op == "layer_norm":
        return fn(x, ex[0], ex[1], eps=1e-5)
    if op == "rms_norm":
        return fn(x, ex[0], eps=E)
    return fn(x, -1)

def first(o):
    return o[0] if isinstance(o, tuple) else o

if MODE == "warm":
    for op in OPS:
        for v in VARS:
            fn = load(op, v)
            for m, n in POINTS:
                x, ex = inputs(op, m, n); call(fn, op, x, ex); call(fn, op, x[:1].clone(), ex)
    torch.cuda.synchronize(); print("warm", OPS, VARS)
else:
    bw = copy_bandwidth()
    print("device", torch.cuda.get_device_name(), "copy bandwidth %.0f GB/s" % bw, flush=True)
    print("| op | point | torch us | " + " | ".join(VARS) + " |", flush=True)
    for op in OPS:
        fns = {v: load(op, v) for v in VARS}
        for m, n in POINTS:
            x, ex = inputs(op, m, n)
            ref = first(call(fns["now"], op, x, ex))
            cells = []
            for v in VARS:
                out = first(call(fns[v], op, x, ex))
                alone = first(call(fns[v], op, x[:1].clone(), ex))
                ok = torch.equal(out, ref) and torch.equal(alone, out[:1])
                t = graph_ms(lambda: call(fns[v], op, x, ex)) * 1e3
                cells.append(f"{t:.2f} ({2 * x.numel() * 2 / (t * 1e-6) / 1e9 / bw * 100:.0f}%)" + ("" if ok else " BITS"))
            tt = graph_ms(lambda: REF[op][1](x, *ex)) * 1e3
            print(f"| {op} | bf16 {m} x {n} | {tt:.2f} | " + " | ".join(cells) + " |", flush=True)
