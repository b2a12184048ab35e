"""Run 213 (run213d: these POINTS and VARIANTS; run213b timed softmax_held, layer_norm at prev, now and across, run213c rms_norm, add_rms_norm at 4096 x 32000 and argmax now / held): the 8 modules rebuilt with the row kernels' L2 prefetch (9a9c4f2) against d6c22c0's, as
built (bits and GPU time); the held rows of 20000-24576 in the across form; argmax's rows of 32000
held on short grids (ROW_MAX_TILES 128) against the split path.
    python bench.py warm|time OP[,OP...]"""
import importlib.util, sys
from pathlib import Path
import torch
import torch.nn.functional as F
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402

MODE, OPS = sys.argv[1], sys.argv[2].split(",")
PREV = ROOT / "_scratch/r213/prev"
GEN = ROOT / "generated/cuda"
DT = {"bf16": torch.bfloat16, "f32": torch.float32}
E = 1e-6
# op -> (extra inputs (w: weight, b: bias, r: residual), torch reference, full-size outputs written)
OPS_DEF = {
    "softmax_held": ("", lambda x: torch.softmax(x, -1), 1),
    "log_softmax_held": ("", lambda x: torch.log_softmax(x, -1), 1),
    "layer_norm": ("wb", lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5), 1),
    "rms_norm": ("w", lambda x, w: F.rms_norm(x, x.shape[-1:], w, E), 1),
    "rms_norm_rstd": ("w", lambda x, w: F.rms_norm(x, x.shape[-1:], w, E), 1),
    "add_rms_norm": ("rw", lambda x, r, w: F.rms_norm(x + r, x.shape[-1:], w, E), 2),
    "fp8_quant": ("", lambda x: (x / x.abs().amax(-1, keepdim=True).float().clamp(min=1e-12) * 448).to(torch.float8_e4m3fn), 0.5),
    "fp8_quant_e5m2": ("", lambda x: (x / x.abs().amax(-1, keepdim=True).float().clamp(min=1e-12) * 448).to(torch.float8_e5m2), 0.5),
    "argmax": ("d", lambda x: torch.argmax(x, -1), 0),
}
BIG = [("bf16", 4096, 32000), ("bf16", 16384, 32000), ("bf16", 1024, 32000), ("bf16", 4096, 20000),
       ("bf16", 4096, 24576), ("bf16", 16384, 20000), ("bf16", 132, 32000), ("bf16", 4096, 16384), ("f32", 4096, 32000)]
NORM = [("bf16", 4096, 32000), ("bf16", 16384, 32000), ("bf16", 4096, 20000), ("bf16", 4096, 24576), ("bf16", 132, 32000), ("f32", 4096, 32000)]
POINTS0 = {"softmax_held": BIG, "log_softmax_held": BIG, "layer_norm": NORM, "rms_norm": NORM, "rms_norm_rstd": NORM[:3],
          "add_rms_norm": NORM, "fp8_quant": NORM[:4], "fp8_quant_e5m2": NORM[:2],
          "argmax": [(d, m, 32000) for d in ("bf16", "f32") for m in (1, 8, 32, 132, 256)] + [("f32", 1024, 32000), ("bf16", 8, 24576), ("f32", 8, 20000)]}
S = [("bf16", 4096, 32000), ("bf16", 16384, 32000), ("bf16", 4096, 20000), ("bf16", 4096, 24576), ("f32", 4096, 32000)]
N3 = [("bf16", 4096, 32000), ("bf16", 4096, 20000), ("bf16", 4096, 24576)]
POINTS = {"add_rms_norm": [("bf16", 16384, 32000), ("bf16", 4096, 20000), ("bf16", 4096, 24576)], "fp8_quant": N3[:2], "rms_norm_rstd": N3[:1], "rms_norm": [("bf16", 16384, 32000), ("bf16", 4096, 20000)], "log_softmax_held": [("bf16", 4096, 32000), ("bf16", 4096, 20000)], "fp8_quant_e5m2": N3[:1]}
POINTS1 = {"softmax_held": S, "log_softmax_held": S, "layer_norm": N3, "rms_norm": N3, "add_rms_norm": N3, "fp8_quant": N3[:2], "rms_norm_rstd": N3[:1], "fp8_quant_e5m2": N3[:1],
          "argmax": [("bf16", m, 32000) for m in (1, 8, 32, 256)] + [("f32", m, 32000) for m in (1, 8, 256)]}
ACROSS = dict(ROW_ACROSS_PAD=1 << 30)
VARIANTS = {op: [("prev", PREV / f"{op}.py", {}), ("now", GEN / f"{op}.py", {})] for op in POINTS}
VARIANTS["argmax"] = [("now", GEN / "argmax.py", {}), ("held", GEN / "argmax.py", dict(ROW_MAX_TILES=128))]
n_loaded = 0


def load(p, knobs):
    global n_loaded
    n_loaded += 1
    s = importlib.util.spec_from_file_location(f"{p.stem}", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    for k, v in knobs.items():
        assert hasattr(m, k), k
        setattr(m, k, v)
    return m


def kernels(mod, fn):
    names, go = [], mod._go
    def spy(kernel, grid, args, consts):
        names.append(getattr(kernel, "__name__", None) or kernel.fn.__name__)
        return go(kernel, grid, args, consts)
    mod._go = spy
    try:
        out = fn()
    finally:
        mod._go = go
    return out, names


def bits(t):
    return t.view(torch.uint8) if t.element_size() == 1 and t.is_floating_point() else t


def same(a, b):
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return len(a) == len(b) and all(torch.equal(bits(x), bits(y)) for x, y in zip(a, b))


def row0(o):
    return tuple(t[:1] for t in o) if isinstance(o, tuple) else o[:1]


print("device", torch.cuda.get_device_name(), torch.__version__, flush=True)
bw = copy_bandwidth() if MODE == "time" else 1.0
print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
bad = 0
for op in OPS:
    extra_kind, ref, outs_n = OPS_DEF[op]
    vs = VARIANTS[op]
    mods = {v: load(p, k) for v, p, k in vs}
    fns = {v: getattr(m, op) for v, m in mods.items()}
    print(f"\n| {op} | torch | " + " | ".join(v for v, _, _ in vs) + " | kernels |", flush=True)
    for dt, m, n in POINTS[op]:
        g = torch.Generator(device="cuda").manual_seed(n + m)
        x = (torch.randn(m, n, device="cuda", generator=g) * 3).to(DT[dt])
        extra = []
        for c in extra_kind:
            if c == "w":
                extra.append((1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt]))
            elif c == "b":
                extra.append((0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt]))
            elif c == "r":
                extra.append(torch.randn(m, n, device="cuda", generator=g).to(DT[dt]))
        args = (x, *extra)
        call = {v: (lambda f=f: f(*args, dim=-1)) for v, f in fns.items()}
        outs, kern, eq = {}, {}, []
        for v in call:
            outs[v], kern[v] = kernels(mods[v], call[v])
            if v != "now":
                eq.append(True)
                continue
            one = fns[v](*[a[:1].clone() if a.dim() == 2 else a for a in args], dim=-1)
            eq.append(same(row0(outs[v]), one))
        first = outs[vs[0][0]]
        eq = [e and same(outs[v], first) for e, v in zip(eq, call)]
        if op == "argmax":
            eq = [e and same(outs[v], torch.argmax(x, -1)) for e, v in zip(eq, call)]
        bad += not all(eq)
        if MODE != "time":
            print(f"| {dt} {m} x {n} | | " + " | ".join("ok" if e else "BITS" for e in eq) + f" | {' / '.join(','.join(kern[v]) for v in call)} |", flush=True)
            continue
        tt = graph_ms(lambda: ref(*args)) * 1e3
        ts = {v: graph_ms(c) * 1e3 for v, c in call.items()}
        ins = x.numel() * x.element_size() * (2 if "r" in extra_kind else 1)
        nbytes = ins + outs_n * x.numel() * x.element_size()
        cells = [f"{ts[v]:.2f} ({nbytes / (ts[v] * 1e-6) / 1e9 / bw * 100:.0f}%)" + ("" if e else " BITS") for v, e in zip(call, eq)]
        print(f"| {dt} {m} x {n} | {tt:.2f} | " + " | ".join(cells) + f" | {' / '.join(','.join(kern[v]) for v in call)} |", flush=True)
print("\nbits mismatches:", bad)
