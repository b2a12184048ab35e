"""One routed mm's host time taken apart (calls back to back): torch, the mode, and each piece."""
import sys, time
sys.path.insert(0, "benchmarks")
import torch, redgen
from redgen.runtime import mode
import generated.cuda.matmul as mm_mod

def us(fn, n=3000):
    for _ in range(200): fn()
    torch.cuda.synchronize()
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n): fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
    return best

bf = torch.bfloat16
x = torch.randn(8, 2048, device="cuda", dtype=bf)
w = torch.randn(2048, 2048, device="cuda", dtype=bf)
wt = w.t()
rows = []
rows.append(("torch.mm", us(lambda: torch.mm(x, wt))))
rows.append(("F.linear (torch)", us(lambda: torch.nn.functional.linear(x, w))))
rows.append(("matmul launcher (replay)", us(lambda: mm_mod.matmul(x, wt))))
rows.append(("torch.empty 8x2048 bf16", us(lambda: torch.empty((8, 2048), dtype=bf, device=x.device))))
dev = x.device
rows.append(("torch.empty cached device", us(lambda: torch.empty((8, 2048), dtype=bf, device=dev))))
rows.append(("_raw_stream", us(lambda: mm_mod._raw_stream(0))))
rows.append(("_hooks", us(mm_mod._hooks)))
rows.append(("torch.cuda.current_device", us(torch.cuda.current_device)))
rows.append(("torch._C._cuda_getDevice", us(torch._C._cuda_getDevice)))
key = (mm_mod.matmul.__wrapped__ if hasattr(mm_mod.matmul, "__wrapped__") else None)
with redgen.batch_invariant():
    rows.append(("mode torch.mm", us(lambda: torch.mm(x, wt))))
    rows.append(("mode F.linear", us(lambda: torch.nn.functional.linear(x, w))))
    rr = mode._STATE.replays[("mm.default", "CUDA")]
    k = rr.key((x, wt), {})
    rows.append(("RouteReplay.key", us(lambda: rr.key((x, wt), {}))))
    rows.append(("RouteReplay.replay", us(lambda: rr.replay(k, (x, wt)))))
    m, plan, places, knobs = rr.plans[k]
    rows.append(("mod._knobs()", us(m._knobs)))
    rows.append(("mod._replay", us(lambda: m._replay(plan, [x, wt]))))
    _, cur, device, outs, scratch, launches, many, direct = plan
    kern, grid, template, slots, consts, bound = launches[0]
    o = torch.empty(outs[0][0], dtype=outs[0][2], device=device)
    a = m._fill(template, slots, ((x, wt), [o], []))
    st = m._raw_stream(cur)
    rows.append(("_run_bound only", us(lambda: m._run_bound(bound, grid, a, st, None, None))))
    compiled, run, function, metadata, (g0, g1, g2), tail = bound
    rows.append(("bound run() only", us(lambda: run(g0, g1, g2, st, function, metadata, None, None, None, *a, *tail))))
    print("launch args", len(a) + len(tail), [type(v).__name__ for v in a])
    ts = [x, wt]
    from redgen.runtime.route_replay import _sig
    rows.append(("_sig x2", us(lambda: (_sig(x), _sig(wt)))))
    rows.append(("x.device", us(lambda: x.device)))
    rows.append(("x.shape", us(lambda: x.shape)))
    rows.append(("x.stride()", us(lambda: x.stride())))
    rows.append(("x.data_ptr()", us(lambda: x.data_ptr())))
    rows.append(("x.requires_grad", us(lambda: x.requires_grad)))
    rows.append(("hash(key)", us(lambda: hash(k))))
print(f"device {torch.cuda.get_device_name()}")
for n, v in rows:
    print(f"{n:32s} {v:7.2f} us")
