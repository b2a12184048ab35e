"""Where the mode's extra generate time goes: prefill vs decode, per route family (interleaved)."""
import sys, time, cProfile, pstats, io
sys.path.insert(0, "benchmarks"); sys.path.insert(0, "examples")
import torch, redgen
from redgen.runtime import mode
from model_bench import SETUP, FAMILIES
from llama_invariance import build

s = SETUP
model = build(s)
g = torch.Generator(device="cuda").manual_seed(1)
ids = torch.randint(0, s.vocab, (s.batches[0], s.prompt), device="cuda", generator=g)

def phases(new=64):
    with torch.no_grad():
        torch.cuda.synchronize(); t0 = time.perf_counter()
        out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
        past, logits = out.past_key_values, out.logits[:, -1]
        torch.cuda.synchronize(); t1 = time.perf_counter()
        for _ in range(new):
            tok = logits.argmax(-1)
            out = model(input_ids=tok[:, None], past_key_values=past, use_cache=True)
            past, logits = out.past_key_values, out.logits[:, -1]
        torch.cuda.synchronize(); t2 = time.perf_counter()
    return t1 - t0, t2 - t1

every = mode.ROUTES
configs = [("plain", None), ("all", every)] + [(k, tuple(r for r in every if r.aten.startswith(p))) for k, p in FAMILIES.items()]
best = {k: [9, 9] for k, _ in configs}
for k, routes in configs:  # warm
    if routes is None: phases(4)
    else:
        mode.ROUTES = routes
        with redgen.batch_invariant(): phases(4)
for _ in range(4):
    for k, routes in configs:
        if routes is None: p, d = phases()
        else:
            mode.ROUTES = routes
            with redgen.batch_invariant(): p, d = phases()
        best[k] = [min(best[k][0], p), min(best[k][1], d)]
mode.ROUTES = every
print("| routed | prefill ms | decode ms (64 steps) | decode us/step |")
for k, (p, d) in best.items():
    print(f"| {k} | {p*1e3:.2f} | {d*1e3:.1f} | {d/64*1e6:.0f} |")
# host time of argmax and mean on the real shapes, in and out of the mode
logits = torch.randn(8, 32000, device="cuda", dtype=torch.bfloat16)
h = torch.randn(8, 1, 2048, device="cuda")
def us(f, n=2000):
    f(); torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(n): f()
    torch.cuda.synchronize(); return (time.perf_counter() - t) / n * 1e6
for name, f in (("argmax [8, 32000] bf16", lambda: logits.argmax(-1)), ("mean [8, 1, 2048] f32", lambda: h.pow(2).mean(-1, keepdim=True))):
    a = us(f)
    with redgen.batch_invariant(): b = us(f)
    print(f"{name}: torch {a:.1f} us, in the mode {b:.1f} us")
# cProfile of the decode in the mode vs plain: the biggest differences by function
def prof(on):
    pr = cProfile.Profile()
    if on:
        with redgen.batch_invariant():
            pr.enable(); phases(); pr.disable()
    else:
        pr.enable(); phases(); pr.disable()
    st = pstats.Stats(pr); return {f"{k[0].split('/')[-1]}:{k[1]}({k[2]})": v[3] for k, v in st.stats.items()}, st
p0, _ = prof(False); p1, st1 = prof(True)
diff = sorted(((p1.get(k, 0) - p0.get(k, 0), k) for k in set(p0) | set(p1)), reverse=True)[:25]
print("cumulative time, mode minus plain (s):")
for d, k in diff: print(f"  {d:+.4f} {k}")
