"""Run 250: a dense attention plan's family (C++ makes a new key length's plan itself).
(1) bits: the bound module (as redgen.load binds it), 32 layers a step, key lengths crossing
multiples of 16 and 256, both layouts, return_lse, split and fused, each layer against the
general path; how many plans Python handed over. (2) the mode: a growing decode through
F.scaled_dot_product_attention against the general path, and the C++ route's hits. (3) host time
a call in a growing decode, 1/2/4/8/32 layers a step: families, no families (run 247's), Python
geometry path."""
import importlib
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path.cwd()))
import redgen  # noqa: E402
from redgen.runtime import fast_route  # noqa: E402

mod = importlib.import_module("generated.cuda.attention")
g = torch.Generator("cuda").manual_seed(0)
bf = torch.bfloat16
q = torch.randn(8, 16, 1, 128, generator=g, device="cuda").to(bf)
K = torch.randn(8, 4, 4000, 128, generator=g, device="cuda").to(bf)
V = torch.randn(8, 4, 4000, 128, generator=g, device="cuda").to(bf)
print("device", torch.cuda.get_device_name(), "bound:", fast_route.bind(mod), flush=True)
fast = mod._FAST
handed = []
real_hand = mod._hand_over
mod._hand_over = lambda *a: handed.append(a[1]) or real_hand(*a)


def cache(n, heads_first):
    # a fresh contiguous cache each step, as Hugging Face's (its strides move with n)
    k, v = K[:, :, :n].contiguous(), V[:, :, :n].contiguous()
    return (k, v) if heads_first else (k.transpose(1, 2), v.transpose(1, 2))


def general(qq, k, v, heads_first, return_lse):
    if heads_first:
        got = mod._run(qq.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), False, None, None, None, None, None,
                       return_lse)
        return tuple(x.transpose(1, 2) for x in got) if return_lse else got.transpose(1, 2)
    return mod._run(qq, k, v, False, None, None, None, None, None, return_lse)


def same(a, b):
    a, b = (a if isinstance(a, tuple) else (a,)), (b if isinstance(b, tuple) else (b,))
    return all(torch.equal(x, y) and x.stride() == y.stride() for x, y in zip(a, b, strict=True))


SHIPPED = mod.SPLIT_BELOW
for split_below in (SHIPPED, 0):  # the shipped knob (split at this geometry), then fused
    mod.SPLIT_BELOW = split_below
    for heads_first in (True, False):
        qq = q if heads_first else q.transpose(1, 2)
        for return_lse in (False, True):
            bad, total, plans0, handed0 = [], 0, fast_route.plans()[0], len(handed)
            for lo, hi in ((500, 530), (760, 780)):
                for n in range(lo, hi):
                    k, v = cache(n, heads_first)
                    want = general(qq, k, v, heads_first, return_lse)
                    outs = [mod.attention(qq, k, v, causal=False, return_lse=return_lse, heads_first=heads_first)
                            for _ in range(32)]
                    torch.cuda.synchronize()
                    bad += [(n, i) for i, o in enumerate(outs) if not same(o, want)]
                    total += 32
            print(f"bound, SPLIT_BELOW {split_below}, heads_first {heads_first}, return_lse {return_lse}: "
                  f"{len(bad)} of {total} differ (first {bad[:4]}); plans handed over by Python "
                  f"{len(handed) - handed0} for 50 key lengths; C++ plans +{fast_route.plans()[0] - plans0}", flush=True)
mod.SPLIT_BELOW = SHIPPED

# (2) the mode: SDPA on a growing decode (the query's heads over the key's, as Hugging Face repeats
# them), each call against the general path; the C++ route's hits and Python's hand-overs
K16, V16 = K.repeat_interleave(4, dim=1), V.repeat_interleave(4, dim=1)
hits0, handed0 = sum(fast_route.hits().values()), len(handed)
bad, total = [], 0
with torch.no_grad(), redgen.batch_invariant():
    for n in range(500, 560):
        k, v = K16[:, :, :n].contiguous(), V16[:, :, :n].contiguous()
        outs = [F.scaled_dot_product_attention(q, k, v) for _ in range(8)]
        want = general(q, k, v, True, False)
        torch.cuda.synchronize()
        bad += [(n, i) for i, o in enumerate(outs) if not torch.equal(o, want)]
        total += 8
    print(f"the mode: {len(bad)} of {total} SDPA calls differ from the general path (first {bad[:4]}); "
          f"C++ route hits +{sum(fast_route.hits().values()) - hits0}; Python hand-overs {len(handed) - handed0}; "
          f"hits by op {fast_route.hits()}", flush=True)

# (3) host time a call in a growing decode
STEPS = 40
real_family = mod._family


def decode(layers, first, families=True):
    mod._family = real_family if families else (lambda *a: None)
    for geo in mod._GEOMETRY.values():
        geo.plans.clear()  # (run 252 ran this with geo.families, merged into geo.plans since)
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
    mod._family = real_family
    return t / (STEPS * layers) * 1e6, outs


mod._FAST = None
for n in range(1100, 3700):  # every specialization compiled
    mod.attention(q, K[:, :, :n], V[:, :, :n], causal=False, heads_first=True)
torch.cuda.synchronize()
print("| layers a step | bound, families (C++) us a call | bound, no families (run 247) | Python geometry us a call | outputs equal |")
print("|---|---|---|---|---|")
at = 1100
for layers in (1, 2, 4, 8, 32):
    res = {}
    for name in ("fam", "old", "py", "fam2", "old2", "py2"):
        fast_route.forget()  # every variant's lengths new to the C++ replay
        mod._FAST = None if name.startswith("py") else fast
        res[name] = decode(layers, at, not name.startswith("old"))
    at += STEPS
    eq = all(torch.equal(a, b) and torch.equal(a, c)
             for a, b, c in zip(res["fam"][1], res["py"][1], res["old"][1], strict=True))
    best = {n: min(res[n][0], res[n + "2"][0]) for n in ("fam", "old", "py")}
    print(f"| {layers} | {best['fam']:.1f} | {best['old']:.1f} | {best['py']:.1f} | {eq} |", flush=True)
