"""The floor of a Python-registered route: the mode installed, every routed call handed straight
back to torch's own kernel (call_boxed), so only the dispatcher's trip into Python is paid; then
the same with the mode's signature key computed per call. Against plain and the real mode."""
import sys
sys.path.insert(0, "benchmarks"); sys.path.insert(0, "examples")
import torch
from redgen.runtime import mode
import model_bench
from model_bench import SETUP, interleaved
from llama_invariance import build

s = SETUP
model = build(s)
g = torch.Generator(device="cuda").manual_seed(1)
ids = torch.randint(0, s.vocab, (s.batches[0], s.prompt), device="cuda", generator=g)
real = mode._make_kernel


def passthrough(route, op, fns, original, replays):
    def kernel(keyset, *a, **kw):
        return original.call_boxed(keyset, *a, **kw)
    return kernel


def keyed(route, op, fns, original, replays):
    def kernel(keyset, *a, **kw):
        if replays is not None:
            replays.key(a, kw)
        return original.call_boxed(keyset, *a, **kw)
    return kernel


print(f"device {torch.cuda.get_device_name()}")
PASS = "passthrough (torch's kernels behind a Python route)"
for label, make in ((PASS, passthrough), ("passthrough + the signature key", keyed), ("real mode", real),
                    (PASS, passthrough), ("real mode", real)):
    mode._make_kernel = make
    plain, routed, _, _ = interleaved(model, ids, s.new)
    print(f"| {label} | {plain:.3f} | {routed:.3f} | {routed / plain:.3f}x |", flush=True)
mode._make_kernel = real
