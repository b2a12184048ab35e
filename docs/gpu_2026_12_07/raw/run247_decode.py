"""Run 247: run 246 again with each PTX parameter's recipe cached (fast_route._recipe); every variant
on the same key lengths (the C++ plans forgotten between variants), outputs compared across them.
Run 246: attention bound to the C++ replay (as redgen.load binds it) after the grid fix (92b7431).
(1) 32 layers a step, key lengths crossing multiples of 256, each layer against the general path,
C++ replay and Python geometry path. (2) host time a call in a growing decode, 1/4/32 layers a step.
(3) cProfile of the bound module's first layer of a new key length."""
import cProfile
import importlib
import pstats
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path.cwd()))
from redgen.runtime import fast_route  # noqa: E402

mod = importlib.import_module("generated.cuda.attention")
g = torch.Generator("cuda").manual_seed(0)
bf = torch.bfloat16
q = torch.randn(8, 16, 1, 128, generator=g, device="cuda").to(bf)
K = torch.randn(8, 4, 4000, 128, generator=g, device="cuda").to(bf)
V = torch.randn(8, 4, 4000, 128, generator=g, device="cuda").to(bf)
print("device", torch.cuda.get_device_name(), "bound:", fast_route.bind(mod), flush=True)
fast = mod._FAST


def general(n):
    k, v = K[:, :, :n], V[:, :, :n]
    return mod._run(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), False, None, None, None, None,
                    None, False).transpose(1, 2)


mod.attention(q, K[:, :, :600], V[:, :, :600], causal=False, heads_first=True)
for name in ("cpp",):
    mod._FAST = fast if name == "cpp" else None
    for lo, hi in ((500, 530), (760, 780)):
        bad = []
        for n in range(lo, hi):
            k, v = K[:, :, :n], V[:, :, :n]
            want = general(n)
            outs = [mod.attention(q, k, v, causal=False, heads_first=True) for _ in range(32)]
            torch.cuda.synchronize()
            bad += [(n, i) for i, o in enumerate(outs) if not torch.equal(o, want)]
        print(f"{name} {lo}..{hi - 1}: {len(bad)} of {(hi - lo) * 32} differ; first {bad[:6]}", flush=True)

STEPS = 40


def decode(layers, first, old=False):
    outs, t = [], 0.0
    for n in range(first, first + STEPS):
        k, v = K[:, :, :n], V[:, :, :n]
        if old:  # as before this run: every plan searched by _plan, every PTX parsed
            for geo in mod._GEOMETRY.values():
                geo.plans.clear()
            fast_route._RECIPES.clear()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(layers):
            o = mod.attention(q, k, v, causal=False, heads_first=True)
        t += time.perf_counter() - t0
        outs.append(o)
    torch.cuda.synchronize()
    return t / (STEPS * layers) * 1e6, outs


mod._FAST = None
for n in range(1100, 3700):  # every specialization compiled
    mod.attention(q, K[:, :, :n], V[:, :, :n], causal=False, heads_first=True)
torch.cuda.synchronize()
print("| layers a step | bound (C++) us a call | bound, plans searched (before) | Python geometry us a call | outputs equal |")
print("|---|---|---|---|---|")
at = 1100
for layers in (1, 2, 4, 8, 16, 32):
    res = {}
    for name in ("cpp", "old", "py", "cpp2", "old2", "py2"):
        fast_route.forget()  # every variant's lengths new to the C++ replay
        mod._FAST = None if name.startswith("py") else fast
        res[name] = decode(layers, at, name.startswith("old"))
    at += STEPS
    same = all(torch.equal(a, b) and torch.equal(a, c)
               for a, b, c in zip(res["cpp"][1], res["py"][1], res["old"][1], strict=True))
    best = {n: min(res[n][0], res[n + "2"][0]) for n in ("cpp", "old", "py")}
    print(f"| {layers} | {best['cpp']:.1f} | {best['old']:.1f} | {best['py']:.1f} | {same} |", flush=True)

mod._FAST = fast
prof = cProfile.Profile()
prof.enable()
for n in range(at, at + 300):
    mod.attention(q, K[:, :, :n], V[:, :, :n], causal=False, heads_first=True)
prof.disable()
torch.cuda.synchronize()
st = pstats.Stats(prof)
st.sort_stats("tottime").print_stats(14)
