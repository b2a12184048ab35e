"""Run 210: _k_rows_across as a persistent, pipelined loop over rows (variants from make.py)."""
import importlib.util, sys, json, itertools
from pathlib import Path
import torch
import torch.nn.functional as F
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402

V = Path(__file__).parent / "v"
VARS = ["shipped"] + [f"g{g}s{s}" for g in (1, 2) for s in (1, 2, 3)]
ONLY = sys.argv[1].split(",") if len(sys.argv) > 1 else None


def load(p):
    s = importlib.util.spec_from_file_location(p.stem, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def used(mod):
    names = []
    go = mod._go
    def spy(kernel, grid, args, consts):
        names.append(getattr(kernel, "__name__", None) or kernel.fn.__name__)
        return go(kernel, grid, args, consts)
    return names, spy


print("device", torch.cuda.get_device_name(), flush=True)
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
POINTS = {
    "softmax_held": [("bf16", 4096, 32000), ("bf16", 16384, 32000), ("bf16", 1024, 32000), ("bf16", 4096, 20000),
                     ("bf16", 4096, 24576), ("bf16", 8, 32000), ("bf16", 132, 32000), ("f32", 4096, 32000), ("f32", 4096, 20000)],
    "log_softmax_held": [("bf16", 4096, 32000), ("bf16", 16384, 32000), ("f32", 4096, 32000)],
    "layer_norm": [("bf16", 4096, 32000), ("bf16", 4096, 20000), ("f32", 4096, 32000)],
    "rms_norm": [("bf16", 4096, 32000), ("bf16", 16384, 32000), ("f32", 4096, 32000)],
}
DT = {"bf16": torch.bfloat16, "f32": torch.float32}
TORCH = {"softmax_held": lambda x: torch.softmax(x, -1), "log_softmax_held": lambda x: torch.log_softmax(x, -1),
         "layer_norm": lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b),
         "rms_norm": lambda x, w: F.rms_norm(x, (x.shape[-1],), w)}
bad = 0
for op, pts in POINTS.items():
    if ONLY and op not in ONLY:
        continue
    mods = {v: load(V / f"{op}_{v}.py") for v in VARS}
    fns = {v: getattr(m, op) for v, m in mods.items()}
    print(f"\n| {op} | torch | " + " | ".join(VARS) + " | kernels |", flush=True)
    for dt, m, n in pts:
        g = torch.Generator(device="cuda").manual_seed(n + m)
        x = (torch.randn(m, n, device="cuda", generator=g) * 3).to(DT[dt])
        extra = []
        if op in ("layer_norm", "rms_norm"):
            extra.append((1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt]))
        if op == "layer_norm":
            extra.append((0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt]))
        outs, kern = {}, {}
        for v, f in fns.items():
            orig = mods[v]._go
            names, spy = used(mods[v])
            mods[v]._go = spy
            try:
                outs[v] = f(x, *extra)
                outs[v + "_row0"] = f(x[:1].clone(), *extra)
            finally:
                mods[v]._go = orig
            kern[v] = names[:1]
        first = outs["shipped"]
        first = first[0] if isinstance(first, tuple) else first
        eq = []
        for v in VARS:
            o = outs[v][0] if isinstance(outs[v], tuple) else outs[v]
            r0 = outs[v + "_row0"][0] if isinstance(outs[v + "_row0"], tuple) else outs[v + "_row0"]
            eq.append(torch.equal(o, first) and torch.equal(r0[0], o[0]))
        bad += not all(eq)
        tt = graph_ms(lambda: TORCH[op](x, *extra)) * 1e3
        ts = {v: graph_ms(lambda f=f: f(x, *extra)) * 1e3 for v, f in fns.items()}
        nbytes = 2 * x.numel() * x.element_size()
        cells = [f"{ts[v]:.1f} ({nbytes / (ts[v] * 1e-6) / 1e9 / bw * 100:.0f}%)" + ("" if e else " BITS") for v, e in zip(VARS, eq)]
        print(f"| {dt} {m} x {n} | {tt:.1f} | " + " | ".join(cells) + f" | {kern['g1s2']} |", flush=True)
print("\nbits mismatches:", bad)
