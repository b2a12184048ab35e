"""Run 190: a replayed mean's Python, step by step, on the GPU machine (perf_counter_ns around each step)."""
import sys, time, importlib, gc
import torch
sys.path.insert(0, ".")
mod = importlib.import_module("generated.cuda.mean")
x = torch.randn(64, 4096, device="cuda")
mod.mean(x, -1); mod.mean(x, -1); torch.cuda.synchronize()
(key, plan), = mod._PLANS.items()
args = (x, -1, False, None)
_, current, device, outs, scratch, launches, many, direct = plan
empty = torch.empty_strided
ns = time.perf_counter_ns
names = ["key", "get", "alloc", "hooks+stream", "fill", "launch", "call-whole"]
acc = dict.fromkeys(names, 0)
N = 20000
for it in range(N + 1000):
    t0 = ns()
    k = (mod._run, mod._KNOB_GEN, mod._device(), x.__class__, x.shape, x.stride(), x.dtype, x.device, x.requires_grad,
         x.data_ptr() % 16 == 0, int, -1, bool, False, type(None), None)
    t1 = ns()
    p = mod._PLANS.get(key)
    t2 = ns()
    made = [empty(s, st, dtype=d, device=device) for s, st, d in outs]
    t3 = ns()
    enter, leave = mod._hooks()
    stream = mod._raw_stream(current)
    size, calls = direct
    t4 = ns()
    launch, g0, g1, g2, function, cooperative, pdl, metadata, template, places = calls[0]
    a = list(template)
    for pos, src, i in places:
        a[pos] = args[i].data_ptr() if src == 0 else made[i].data_ptr() if src == 1 else i
    t5 = ns()
    launch(g0, g1, g2, stream, function, cooperative, pdl, None, None, metadata, None, None, None, *a)
    t6 = ns()
    mod.mean(x, -1)
    t7 = ns()
    if it >= 1000:
        for n, d in zip(names, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t7 - t6)):
            acc[n] += d
torch.cuda.synchronize()
print("mean 64x4096 f32, us a call (mean of %d):" % N, {n: round(v / N / 1e3, 2) for n, v in acc.items()})
print("gc enabled:", gc.isenabled(), "thresholds", gc.get_threshold(), "python", sys.version.split()[0])
import platform; print(platform.processor(), open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0])
