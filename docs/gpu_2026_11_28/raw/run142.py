"""Run 142: the one-read ops (sum, mean, amax) on the row kernel (the whole row's loads at once, one
launch) against the shipped modules (split path: a launch a stage; fused: chunks one after another).
Bits compared at every point."""
import importlib.util, os, sys, time
sys.path.insert(0, os.getcwd() + "/benchmarks")
import torch
from gpu_run import graph_ms, load
from pathlib import Path

def mod(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m

OPS = ("sum", "mean", "amax")
base = {op: load(Path(f"generated/cuda/{op}.py")) for op in OPS}
row = {op: mod(f"_scratch/v1/{op}.py", f"{op}_row") for op in OPS}
fused = {op: load(Path(f"generated/cuda/{op}.py")) for op in OPS}
for m_ in fused.values():
    m_.SPLIT_BELOW = 0  # the fused path everywhere (set before any call records a plan)
print("device", torch.cuda.get_device_name(), flush=True)
print("op dtype M N | shipped(path) us | fused us | row us | row/shipped | torch us | bits")
t0 = time.time()
for op in OPS:
    for dt in (torch.float32, torch.bfloat16):
        for n in (4096, 5000, 8192, 12000, 16384, 32000):
            for m in (1, 32, 256, 4096, 16384):
                x = torch.randn(m, n, device="cuda").to(dt)
                f, r = getattr(base[op], op), getattr(row[op], op)
                ref = f(x, -1); out = r(x, -1)
                sh = base[op]._schedule(m, n, 1, x.element_size())
                rs = row[op]._schedule(m, n, 1, x.element_size())
                t_s = graph_ms(lambda: f(x, -1)) * 1e3
                g = getattr(fused[op], op)
                same_f = torch.equal(g(x, -1), ref)
                t_f = graph_ms(lambda: g(x, -1)) * 1e3
                t_r = graph_ms(lambda: r(x, -1)) * 1e3
                tt = getattr(torch, op)
                t_t = graph_ms(lambda: tt(x, -1) if op != "amax" else torch.amax(x, -1)) * 1e3
                print(f"{op} {str(dt)[6:]} {m} {n} | {t_s:.2f} ({'split' if sh[6] else sh[2]}) | {t_f:.2f} | {t_r:.2f} ({rs[2]} b{rs[3]} w{rs[5]}) | {t_r / t_s:.3f} | {t_t:.2f} | {torch.equal(ref, out)} {same_f}", flush=True)
print(f"took {time.time() - t0:.0f} s")
