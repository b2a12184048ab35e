"""Run 236: the row kernel's long rows (more than ROW_LONG elements) in ROW_LONG_WARPS warps, set at run time
on the modules as built: now (4, as shipped), w8 (8 warps: half the words a thread, and the across rule's
words count halves with it), w16. Bits: each variant against the first's, row 0 alone against row 0 in the batch.
    python bench.py warm|time OP[,OP] VARIANT[,VARIANT] [DT:M:N,...]"""
import importlib.util, sys
from pathlib import Path
import torch
import torch.nn.functional as F
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402
MODE, OPS, VARS = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
KNOBS = {"now": {}, "w8": {"ROW_LONG_WARPS": 8}, "w16": {"ROW_LONG_WARPS": 16}, "w2": {"ROW_LONG_WARPS": 2}}
E = 1e-6
DT = {"bf16": torch.bfloat16, "f32": torch.float32}
REF = {"softmax_held": ("", lambda x: torch.softmax(x, -1)), "log_softmax_held": ("", lambda x: torch.log_softmax(x, -1)),
       "layer_norm": ("wb", lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5)),
       "rms_norm": ("w", lambda x, w: F.rms_norm(x, x.shape[-1:], w, E)),
       "var_held": ("", lambda x: torch.var(x, -1)),
       "std_held": ("", lambda x: torch.std(x, -1)),
       "logsumexp_held": ("", lambda x: torch.logsumexp(x, -1)),
       "fp8_quant": ("", lambda x: (x.float() / (x.abs().amax(-1, keepdim=True).float() / 448).clamp(min=1 / (448 * 512))).clamp(-448, 448).to(torch.float8_e4m3fn))}
POINTS = [(a, int(b), int(c)) for a, b, c in (p.split(":") for p in sys.argv[4].split(","))]
FORMS = {}


def load(op, v):
    s = importlib.util.spec_from_file_location(f"{op}_{v}", ROOT / "generated/cuda" / f"{op}.py")
    m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
    for k, val in KNOBS[v].items():
        assert hasattr(m, k), k
        setattr(m, k, val)
    go = m._go

    def spy(kernel, grid, args, consts):
        name = getattr(getattr(kernel, "fn", kernel), "__name__", "?")
        FORMS.setdefault((op, v), []).append(f"{name.removeprefix('_k_rows_')}/{consts.get('num_warps')}")
        return go(kernel, grid, args, consts)
    m._go = spy
    return getattr(m, op)


def inputs(op, d, m, n):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[d])
    ex = {c: torch.randn(n, device="cuda", generator=g).to(DT[d]) for c in REF[op][0]}
    return x, ex


def call(fn, op, x, ex):
    if op == "layer_norm":
        return fn(x, ex["w"], ex["b"], eps=1e-5)
    if op == "rms_norm":
        return fn(x, ex["w"], eps=E)
    return fn(x, -1)


def outs(o):
    return o if isinstance(o, tuple) else (o,)


if MODE == "warm":
    for op in OPS:
        for v in VARS:
            fn = load(op, v)
            for d, m, n in POINTS:
                x, ex = inputs(op, d, m, n); call(fn, op, x, ex); call(fn, op, x[:1].clone(), ex)
    torch.cuda.synchronize(); print("warm", OPS, VARS, POINTS)
else:
    bw = copy_bandwidth()
    print("device", torch.cuda.get_device_name(), "copy bandwidth %.0f GB/s" % bw, flush=True)
    print("| op | point | torch us | " + " | ".join(VARS) + " | forms |", flush=True)
    print("|---" * (len(VARS) + 4) + "|", flush=True)
    for op in OPS:
        fns = {v: load(op, v) for v in VARS}
        for d, m, n in POINTS:
            x, ex = inputs(op, d, m, n)
            FORMS.clear()
            ref = outs(call(fns[VARS[0]], op, x, ex))
            moved = x.numel() * x.element_size() * {"var_held": 1, "std_held": 1, "logsumexp_held": 1, "fp8_quant": 1.5}.get(op, 2)
            cells = []
            for v in VARS:
                out = outs(call(fns[v], op, x, ex))
                one = outs(call(fns[v], op, x[:1].clone(), ex))
                ok = all(torch.equal(a, b) for a, b in zip(out, ref)) and all(torch.equal(a, b[:1]) for a, b in zip(one, out))
                t = graph_ms(lambda: call(fns[v], op, x, ex)) * 1e3
                cells.append(f"{t:.2f} ({moved / (t * 1e-6) / 1e9 / bw * 100:.0f}%)" + ("" if ok else " BITS"))
            tt = graph_ms(lambda: REF[op][1](x, *ex.values())) * 1e3
            forms = "; ".join(f"{v}: {FORMS.get((op, v), ['?'])[0]}" for v in VARS)
            print(f"| {op} | {d} {m} x {n} | {tt:.2f} | " + " | ".join(cells) + f" | {forms} |", flush=True)
