"""Where a routed call's host time goes inside the model: replay hits per route, launcher records
per module, a cProfile of one generate in the mode; then (argv[1] == 'spy') a loop for py-spy."""
import sys, time, cProfile, pstats, io, importlib
from collections import Counter
sys.path.insert(0, "benchmarks"); sys.path.insert(0, "examples")
import torch, redgen
from redgen.runtime import mode, route_replay
from model_bench import SETUP
from llama_invariance import build

s = SETUP
model = build(s)
g = torch.Generator(device="cuda").manual_seed(1)
ids = torch.randint(0, s.vocab, (s.batches[0], s.prompt), device="cuda", generator=g)


def gen(new=64):
    with torch.no_grad():
        out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
        past, logits = out.past_key_values, out.logits[:, -1]
        for _ in range(new):
            tok = logits.argmax(-1)
            out = model(input_ids=tok[:, None], past_key_values=past, use_cache=True)
            past, logits = out.past_key_values, out.logits[:, -1]
        torch.cuda.synchronize()


gen(4)
with redgen.batch_invariant():
    gen(4)
if len(sys.argv) > 1 and sys.argv[1] == "spy":
    with redgen.batch_invariant():
        t = time.perf_counter()
        for _ in range(6):
            gen()
        print("mode gens", (time.perf_counter() - t) / 6)
    sys.exit(0)

hits, probes, misses, keyless = Counter(), Counter(), Counter(), Counter()
R = route_replay.RouteReplay
orig_replay, orig_probe, orig_key = R.replay, R.probe, R.key
def replay(self, key, args):
    out = orig_replay(self, key, args)
    (misses if out is route_replay.MISS else hits)[self.name] += 1
    return out
def probe(self, key, args, call):
    probes[self.name] += 1
    return orig_probe(self, key, args, call)
def key(self, args, kwargs):
    k = orig_key(self, args, kwargs)
    if k is None:
        keyless[self.name] += 1
    return k
R.replay, R.probe, R.key = replay, probe, key
for (aten, _), rr in mode._STATE.replays.items():
    rr.name = aten
mods = {}
for op in ("matmul", "mean", "attention", "argmax", "bmm", "rms_norm", "softmax"):
    m = importlib.import_module(f"generated.cuda.{op}")
    mods[op] = m
records = Counter()
for op, m in mods.items():
    o = m._record
    def rec(key, run, args, _o=o, _op=op):
        records[_op] += 1
        return _o(key, run, args)
    m._record = rec
with redgen.batch_invariant():
    for (aten, _), rr in mode._STATE.replays.items():
        rr.name = aten
    gen()
    print("hits", dict(hits)); print("misses", dict(misses)); print("probes", dict(probes)); print("keyless", dict(keyless))
    print("launcher records", dict(records)); print("calls", dict(mode.call_counts()))
    pr = cProfile.Profile()
    pr.enable(); gen(); pr.disable()
st = io.StringIO()
p = pstats.Stats(pr, stream=st); p.sort_stats("tottime").print_stats(45)
p.sort_stats("cumulative").print_stats(60)
print(st.getvalue())
