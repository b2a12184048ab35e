"""Run 226: the across form's threads at rows of 8192-16384 (ROW_ACROSS_LANES 2: twice the threads a tile;
fw16: ROW_ACROSS_FEW_WARPS 16 too) against the modules as built (now) and Liger-Kernel 0.8.5, knobs set at
run time; bits compared (every variant against now, row 0 alone against row 0 in the batch).
    python bench.py warm|time OP[,OP] VARIANT[,VARIANT] [DTYPE:M:N,...]"""
import importlib.util, sys
from pathlib import Path
import torch
import torch.nn.functional as F
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402
MODE, OPS, VARS = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
E = 1e-5
DT = {"bf16": torch.bfloat16, "f32": torch.float32}
P = [(d, m, n) for d in ("bf16", "f32") for m in (1, 32, 256, 4096) for n in (8192, 16384)]
KNOBS = {"now": {}, "l2": {"ROW_ACROSS_LANES": 2}, "l2fw16": {"ROW_ACROSS_LANES": 2, "ROW_ACROSS_FEW_WARPS": 16}}
POINTS = [(a, int(b), int(c)) for a, b, c in (p.split(":") for p in sys.argv[4].split(","))] if len(sys.argv) > 4 else P
OPMOD = {"softmax": "softmax_held"}


def load(op, v):
    mod = OPMOD.get(op, op)
    s = importlib.util.spec_from_file_location(f"{mod}_{v}", ROOT / "generated/cuda" / f"{mod}.py")
    m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
    for k, val in KNOBS[v].items():
        assert hasattr(m, k), k
        setattr(m, k, val)
    return getattr(m, mod)


def liger(op):
    from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction
    from liger_kernel.ops.layer_norm import LigerLayerNormFunction
    from liger_kernel.ops.rms_norm import LigerRMSNormFunction
    from liger_kernel.ops.softmax import LigerSoftmaxFunction
    return {"rms_norm": lambda x, w, b, r: LigerRMSNormFunction.apply(x, w, E, 0.0, "llama", False),
            "layer_norm": lambda x, w, b, r: LigerLayerNormFunction.apply(x, w, b, E),
            "softmax": lambda x, w, b, r: LigerSoftmaxFunction.apply(x),
            "add_rms_norm": lambda x, w, b, r: LigerFusedAddRMSNormFunction.apply(x, r, w, E, 0.0, "llama", False)}[op]


def ours(op, fn):
    return {"rms_norm": lambda x, w, b, r: fn(x, w, eps=E),
            "layer_norm": lambda x, w, b, r: fn(x, w, b, eps=E),
            "softmax": lambda x, w, b, r: fn(x, -1),
            "add_rms_norm": lambda x, w, b, r: fn(x, r, w, eps=E)}[op]


def inputs(d, m, n):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[d])
    w, b = (torch.randn(n, device="cuda", generator=g).to(DT[d]) for _ in range(2))
    r = torch.randn(m, n, device="cuda", generator=g).to(DT[d])
    return x, w, b, r


def outs(o):
    return o if isinstance(o, tuple) else (o,)


if MODE == "warm":
    for op in OPS:
        for v in VARS:
            fn = liger(op) if v == "liger" else ours(op, load(op, v))
            for d, m, n in POINTS:
                x, w, b, r = inputs(d, m, n); fn(x, w, b, r); fn(x[:1].clone(), w, b, r[:1].clone())
    torch.cuda.synchronize(); print("warm", OPS, VARS)
else:
    bw = copy_bandwidth()
    print("device", torch.cuda.get_device_name(), "copy bandwidth %.0f GB/s" % bw, flush=True)
    print("| op | point | liger us | " + " | ".join(VARS) + " |", flush=True)
    for op in OPS:
        fns = {v: ours(op, load(op, v)) for v in VARS}
        lg = liger(op)
        for d, m, n in POINTS:
            x, w, b, r = inputs(d, m, n)
            ref = outs(fns[VARS[0]](x, w, b, r))
            cells = []
            for v in VARS:
                out = outs(fns[v](x, w, b, r))
                one = outs(fns[v](x[:1].clone(), w, b, r[:1].clone()))
                ok = all(torch.equal(a, c) for a, c in zip(out, ref)) and all(torch.equal(a, c[:1]) for a, c in zip(one, out))
                t = graph_ms(lambda: fns[v](x, w, b, r)) * 1e3
                cells.append(f"{t:.2f}" + ("" if ok else " BITS"))
            tl_ = graph_ms(lambda: lg(x, w, b, r)) * 1e3
            print(f"| {op} | {d} {m} x {n} | {tl_:.2f} | " + " | ".join(cells) + " |", flush=True)
