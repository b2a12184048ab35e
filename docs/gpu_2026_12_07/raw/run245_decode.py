"""Run 245b: a directly imported attention module's host time a call in a decode whose key length
grows by one a step (views of a static cache: one geometry, a new signature each step), bound to the
C++ replay (as its first geometry now binds it) against its Python direct launches (`_FAST` None:
the path of a module imported before run 243), at 1, 4 and 32 layers a step. Every length is timed
once a variant (a length seen before would be served from its stored plan); outputs compared bitwise."""
import importlib
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path.cwd()))
mod = importlib.import_module("generated.cuda.attention")
g = torch.Generator("cuda").manual_seed(0)
bf = torch.bfloat16
STEPS, FIRST = 40, 600
q = torch.randn(8, 16, 1, 128, generator=g, device="cuda").to(bf)
K = torch.randn(8, 4, 2000, 128, generator=g, device="cuda").to(bf)
V = torch.randn(8, 4, 2000, 128, generator=g, device="cuda").to(bf)


def decode(layers, first):
    outs, t = [], 0.0
    for n in range(first, first + STEPS):
        k, v = K[:, :, :n], V[:, :, :n]
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(layers):
            o = mod.attention(q, k, v, causal=False, heads_first=True)
        t += time.perf_counter() - t0
        outs.append(o)
    torch.cuda.synchronize()
    return t / (STEPS * layers) * 1e6, outs


mod.attention(q, K[:, :, :FIRST], V[:, :, :FIRST], causal=False, heads_first=True)  # binds (its first geometry)
fast = mod._FAST
print("device", torch.cuda.get_device_name(), "bound by the first call:", fast is not None, flush=True)
mod._FAST = None
decode(1, FIRST)  # compiles each specialization of the moving integers (no plan stored: unbound)
mod._FAST = None
for n in range(FIRST, FIRST + 15 * STEPS):
    mod.attention(q, K[:, :, :n], V[:, :, :n], causal=False, heads_first=True)
torch.cuda.synchronize()
print("| layers a step | bound (C++) us a call | Python direct us a call | outputs equal |")
print("|---|---|---|---|")
at = FIRST
for layers in (1, 4, 32):
    res = {}
    for name in ("cpp", "py", "cpp2", "py2"):
        mod._FAST = fast if name.startswith("cpp") else None
        res[name] = decode(layers, at)
        if name.startswith("py"):
            at += STEPS  # the C++ variant's lengths were new to it; the next pair takes new ones
    same = all(torch.equal(a, b) for a, b in zip(res["cpp"][1], res["py"][1], strict=True))
    print(f"| {layers} | {min(res['cpp'][0], res['cpp2'][0]):.1f} | {min(res['py'][0], res['py2'][0]):.1f} | {same} |",
          flush=True)
mod._FAST = fast
