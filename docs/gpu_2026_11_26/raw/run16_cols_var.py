"""cols variants of sum/mean against the shipped module: bits (against the shipped) and GPU time."""
import sys, math, glob, torch
from pathlib import Path
sys.path.insert(0, "benchmarks"); sys.path.insert(0, ".")
from gpu_run import graph_ms, load
pts = [(16, 2048, 2048), (4, 8192, 4096), (64, 512, 1024), (8, 4096, 512), (64, 4096, 256), (1, 32768, 1024), (256, 256, 4096), (2048, 2048, 4)]
ops = sys.argv[1].split(",")
names = sys.argv[2].split(",")
geo = {}
for op in ops:
    mods = {"now": load(Path(f"generated/cuda/{op}.py"))}
    for n in names:
        mods[n] = load(Path(f"bench_variants/{op}_c_{n}.py"))
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in pts:
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            f = getattr(torch, op)
            t = graph_ms(lambda: f(x, 1)) * 1e3
            outs = {u: getattr(m, op)(x, 1) for u, m in mods.items()}
            same = {u: torch.equal(outs["now"], o) for u, o in outs.items()}
            ts = {u: graph_ms(lambda: getattr(m, op)(x, 1)) * 1e3 for u, m in mods.items()}
            print(f"{op} {str(dt)[6:]:8s} {M}x{N}x{K} torch {t:7.2f} " + " ".join(f"{u} {v:7.2f}{'' if same[u] else '!'}" for u, v in ts.items()), flush=True)
            for u, v in ts.items():
                geo.setdefault((op, str(dt)[6:], u), []).append(math.log(t / v))
for k, v in geo.items():
    print(k, round(math.exp(sum(v) / len(v)), 3))
