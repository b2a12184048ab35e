"""Run 219b: where a directly imported module's call spends its host time on a GPU: argmax over 8 rows
of 32000 (split path: two launches, a workspace) and a dense decode attention, against torch; the
pieces (allocations, one raw launch) timed alone, then a cProfile of the direct call."""
import cProfile, importlib, pstats, sys
from pathlib import Path
import torch
import torch.nn.functional as fn
sys.path.insert(0, str(Path.cwd() / "benchmarks")); sys.path.insert(0, str(Path.cwd()))
from gpu_run import host_us  # noqa: E402
bf = torch.bfloat16
am = importlib.import_module("generated.cuda.argmax")
at = importlib.import_module("generated.cuda.attention")
x = torch.randn(8, 32000, device="cuda", dtype=bf)
q = torch.randn(8, 16, 1, 128, device="cuda", dtype=bf)
k = torch.randn(8, 4, 700, 128, device="cuda", dtype=bf)
v = torch.randn(8, 4, 700, 128, device="cuda", dtype=bf)
cases = {
    "argmax 8x32000": (lambda: am.argmax(x, -1), lambda: torch.argmax(x, -1)),
    "attention decode": (lambda: at.attention(q, k, v, causal=False, heads_first=True),
                         lambda: fn.scaled_dot_product_attention(q, k, v, enable_gqa=True)),
}
print("device", torch.cuda.get_device_name(), "fast", am._FAST, at._FAST)
for name, (d, t) in cases.items():
    for _ in range(3):
        d()
    torch.cuda.synchronize()
    a, b = host_us(d), host_us(t)
    print(f"{name}: direct {a:.1f} us, torch {b:.1f} us, direct - torch {a - b:+.1f}")
print("plans", len(am._PLANS), [p[7] is not None for p in am._PLANS.values()])
for key, plan in am._PLANS.items():
    print("argmax plan: outs", plan[3], "scratch", plan[4], "launches", len(plan[5]), "direct", None if plan[7] is None else (plan[7][0], len(plan[7][1])))
print("attention geometries", len(at._GEOMETRY), [(g.split, {k: b[6] is not None for k, b in g.bound.items()}) for g in at._GEOMETRY.values() if g])
e = lambda: torch.empty((8,), dtype=torch.int64, device="cuda")
w = lambda: torch.empty((8 * 8 * 16,), dtype=torch.uint8, device="cuda")
es = lambda: torch.empty_strided((8, 1, 16, 128), (2048, 2048, 128, 1), dtype=bf, device="cuda")
print("torch.empty int64 8: %.2f us, uint8 workspace: %.2f us, empty_strided o: %.2f us" % (host_us(e), host_us(w), host_us(es)))
dev = am._device()
print("_raw_stream %.2f us, _hooks %.2f us, _device %.2f us" % (host_us(lambda: am._raw_stream(dev)), host_us(am._hooks), host_us(am._device)))
for name, (d, _) in cases.items():
    pr = cProfile.Profile(); pr.enable()
    for _ in range(2000):
        d()
    pr.disable(); torch.cuda.synchronize()
    print("== cProfile", name)
    pstats.Stats(pr).sort_stats("tottime").print_stats(14)
