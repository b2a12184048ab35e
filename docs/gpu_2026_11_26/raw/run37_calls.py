"""Host time spent inside the mode's routed calls during one generate (wall time of each routed
Python kernel, launcher included), against the generate's extra time over plain torch."""
import sys, time
from collections import defaultdict
sys.path.insert(0, "benchmarks"); sys.path.insert(0, "examples")
import torch, redgen
from redgen.runtime import mode
from model_bench import SETUP
from llama_invariance import build

spent, calls = defaultdict(float), defaultdict(int)
make = mode._make_kernel


def timed(route, op, fns, original, replays):
    k = make(route, op, fns, original, replays)

    def kernel(*a, **kw):
        t = time.perf_counter()
        try:
            return k(*a, **kw)
        finally:
            spent[route.aten] += time.perf_counter() - t
            calls[route.aten] += 1
    return kernel


mode._make_kernel = timed
s = SETUP
model = build(s)
g = torch.Generator(device="cuda").manual_seed(1)
ids = torch.randint(0, s.vocab, (s.batches[0], s.prompt), device="cuda", generator=g)


def gen(new=64):
    with torch.no_grad():
        torch.cuda.synchronize(); t0 = time.perf_counter()
        out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
        past, logits = out.past_key_values, out.logits[:, -1]
        for _ in range(new):
            tok = logits.argmax(-1)
            out = model(input_ids=tok[:, None], past_key_values=past, use_cache=True)
            past, logits = out.past_key_values, out.logits[:, -1]
        torch.cuda.synchronize()
    return time.perf_counter() - t0


gen(4)
with redgen.batch_invariant():
    gen(4)
best = {"plain": 9.0, "mode": 9.0}
for _ in range(4):
    best["plain"] = min(best["plain"], gen())
    with redgen.batch_invariant():
        spent.clear(); calls.clear()
        t = gen()
        if t < best["mode"]:
            best["mode"], keep = t, (dict(spent), dict(calls))
print(f"device {torch.cuda.get_device_name()}")
print(f"generate: plain {best['plain'] * 1e3:.1f} ms, mode {best['mode'] * 1e3:.1f} ms, extra {(best['mode'] - best['plain']) * 1e3:.1f} ms")
sp, ca = keep
total = sum(sp.values())
print(f"host time inside routed calls: {total * 1e3:.1f} ms over {sum(ca.values())} calls")
for a in sorted(sp, key=sp.get, reverse=True):
    print(f"  {a}: {ca[a]} calls, {sp[a] * 1e3:.1f} ms, {sp[a] / ca[a] * 1e6:.1f} us a call")
