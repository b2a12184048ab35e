import sys, torch
sys.path.insert(0, "benchmarks")
from gpu_run import load
from pathlib import Path
F = {"fp8_quant": (torch.float8_e4m3fn, 448.0), "fp8_quant_e5m2": (torch.float8_e5m2, 57344.0)}
def ref(x, fp8, fmax):
    xf = x.float(); s = torch.clamp(xf.abs().amax(-1, keepdim=True) / fmax, min=1.0 / (fmax * 512))
    return (xf / s).clamp(-fmax, fmax).to(fp8), s
for path in sys.argv[1:]:
    mod = load(Path(path)); op = "fp8_quant_e5m2" if hasattr(mod, "fp8_quant_e5m2") else "fp8_quant"
    fn = getattr(mod, op); fp8, fmax = F[op]
    for knob in (None, 2):
        if knob: mod.ROW_FEW_WARPS = knob
        for dt in (torch.float32, torch.bfloat16):
            g = torch.Generator(device="cuda").manual_seed(7 + 4096)
            x = (torch.randn(1, 4096, device="cuda", generator=g) * 3).to(dt)
            q, s = fn(x); rq, rs = ref(x, fp8, fmax)
            a, b = q.view(torch.uint8)[0], rq.view(torch.uint8)[0]
            bad = (a != b).nonzero().flatten()
            print(Path(path).name, "few_warps", knob, dt, "diffs", bad.numel(), "scale eq", torch.equal(s, rs), flush=True)
            for i in bad[:6].tolist():
                print(f"   i={i} x={x[0,i].item():.6g} x/s={(x[0,i].float()/s[0,0]).item():.6g} got={a[i].item():#04x} want={b[i].item():#04x}")
            print("   first 8 got ", [hex(v) for v in a[:8].tolist()], " want ", [hex(v) for v in b[:8].tolist()])
    mod.ROW_FEW_WARPS = 4
