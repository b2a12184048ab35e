"""Run 223: the across form of layer_norm and log_softmax_held at packed rows of 22528-24576 (as built
since runs 218-219, `now`) against launch knobs set at run time: pack8 (ROW_ACROSS_PACK_CHUNKS 8:
eight lanes a thread, 8 warps, where six chunks take four lanes in 16 warps), lanes2
(ROW_ACROSS_LANES 2: 32 warps), ahead2 / ahead0 (ROW_PREFETCH_AHEAD 2 waves / no L2 prefetch);
bits compared, row 0 alone against row 0 in the batch.
    python bench.py warm|time OP[,OP] VARIANT[,VARIANT] [M:N,...]"""
import importlib.util, sys
from pathlib import Path
import torch
import torch.nn.functional as F
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402
MODE, OPS, VARS = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
KNOBS = {"now": {}, "pack8": {"ROW_ACROSS_PACK_CHUNKS": 8}, "lanes2": {"ROW_ACROSS_LANES": 2},
         "ahead2": {"ROW_PREFETCH_AHEAD": 2}, "ahead0": {"ROW_PREFETCH_AHEAD": 0}}
E = 1e-6
REF = {"softmax_held": ("", lambda x: torch.softmax(x, -1)), "log_softmax_held": ("", lambda x: torch.log_softmax(x, -1)),
       "layer_norm": ("wb", lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5)),
       "rms_norm": ("w", lambda x, w: F.rms_norm(x, x.shape[-1:], w, E)),
       "add_rms_norm": ("rw", lambda x, r, w: F.rms_norm(x + r, x.shape[-1:], w, E)),
       "rms_norm_rstd": ("w", lambda x, w: F.rms_norm(x, x.shape[-1:], w, E)),
       "var_held": ("", lambda x: torch.var(x, -1)),
       "logsumexp_held": ("", lambda x: torch.logsumexp(x, -1)),
       "fp8_quant": ("", lambda x: (x.float() / (x.abs().amax(-1, keepdim=True).float() / 448).clamp(min=1 / (448 * 512))).clamp(-448, 448).to(torch.float8_e4m3fn))}
POINTS = [tuple(map(int, p.split(":"))) for p in sys.argv[4].split(",")] if len(sys.argv) > 4 else [
    (4096, 22528), (4096, 24576), (16384, 24576), (4096, 26000)]


def load(op, v):
    s = importlib.util.spec_from_file_location(f"{op}_{v}", ROOT / "generated/cuda" / f"{op}.py")
    m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
    for k, val in KNOBS[v].items():
        assert hasattr(m, k), k
        setattr(m, k, val)
    return getattr(m, op)


def inputs(op, m, n):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(torch.bfloat16)
    ex = {c: torch.randn(m if c == "r" else 1, n, device="cuda", generator=g).to(torch.bfloat16).squeeze(0) for c in REF[op][0]}
    return x, ex


def call(fn, op, x, ex):
    if op == "layer_norm":
        return fn(x, ex["w"], ex["b"], eps=1e-5)
    if op == "rms_norm":
        return fn(x, ex["w"], eps=E)
    if op == "add_rms_norm":
        return fn(x, ex["r"], ex["w"], eps=E)
    if op == "rms_norm_rstd":
        return fn(x, ex["w"], eps=E)
    return fn(x, -1)


def outs(o):
    return o if isinstance(o, tuple) else (o,)


def alone(op, ex):
    return {c: (t[:1].clone() if c == "r" else t) for c, t in ex.items()}


if MODE == "warm":
    for op in OPS:
        for v in VARS:
            fn = load(op, v)
            for m, n in POINTS:
                x, ex = inputs(op, m, n); call(fn, op, x, ex); call(fn, op, x[:1].clone(), alone(op, ex))
    torch.cuda.synchronize(); print("warm", OPS, VARS)
else:
    bw = copy_bandwidth()
    print("device", torch.cuda.get_device_name(), "copy bandwidth %.0f GB/s" % bw, flush=True)
    print("| op | point | torch us | " + " | ".join(VARS) + " |", flush=True)
    for op in OPS:
        fns = {v: load(op, v) for v in VARS}
        for m, n in POINTS:
            x, ex = inputs(op, m, n)
            ref = outs(call(fns[VARS[0]], op, x, ex))
            moved = x.numel() * 2 * {"add_rms_norm": 4, "var_held": 1, "logsumexp_held": 1, "fp8_quant": 1.5}.get(op, 2)
            cells = []
            for v in VARS:
                out = outs(call(fns[v], op, x, ex))
                one = outs(call(fns[v], op, x[:1].clone(), alone(op, ex)))
                ok = all(torch.equal(a, b) for a, b in zip(out, ref)) and all(torch.equal(a, b[:1]) for a, b in zip(one, out))
                t = graph_ms(lambda: call(fns[v], op, x, ex)) * 1e3
                cells.append(f"{t:.2f} ({moved / (t * 1e-6) / 1e9 / bw * 100:.0f}%)" + ("" if ok else " BITS"))
            tt = graph_ms(lambda: REF[op][1](x, *ex.values())) * 1e3
            print(f"| {op} | bf16 {m} x {n} | {tt:.2f} | " + " | ".join(cells) + " |", flush=True)
