"""Run 195: is softmax's output division what holds 16-bit rows below the copy bandwidth? Copies of the
generated softmax and softmax_held modules whose outputs multiply by 1 / s instead of dividing by s
(other bits: a measurement, not a candidate as is)."""
import sys, re, types, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
from gpu_run import graph_ms, copy_bandwidth


def patched(name):
    src = open(f"generated/cuda/{name}.py").read()
    src, n = re.subn(r"/ (r_\d_s?tot\[[^\]]*\])\)", r"* (1.0 / \1))", src)
    m = types.ModuleType(name + "_recip")
    m.__file__ = f"/tmp/{name}_recip.py"
    open(m.__file__, "w").write(src)  # Triton reads a kernel's source from its file
    sys.modules[m.__name__] = m
    exec(compile(src, m.__file__, "exec"), m.__dict__)
    print(f"{name}: {n} divisions replaced")
    return m


ship = importlib.import_module("generated.cuda.softmax")
held = importlib.import_module("generated.cuda.softmax_held")
rsoft, rheld = patched("softmax"), patched("softmax_held")
print(f"device: {torch.cuda.get_device_name()}")
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s")
POINTS = [("held", torch.bfloat16, 4096, 32000), ("held", torch.bfloat16, 16384, 32000), ("held", torch.bfloat16, 4096, 8192),
          ("held", torch.float32, 4096, 32000), ("walk", torch.bfloat16, 4096, 151936), ("walk", torch.bfloat16, 1024, 151936),
          ("walk", torch.float32, 4096, 151936)]
for path, dt, M, N in POINTS:
    x = (torch.randn(M, N, device="cuda") * 3).to(dt)
    gb = 2 * x.numel() * x.element_size() / 1e9
    a, b = (held.softmax_held, rheld.softmax_held) if path == "held" else (ship.softmax, rsoft.softmax)
    ya, yb = a(x, 1), b(x, 1)
    ref = torch.softmax(x.double(), 1)
    ea = (ya.double() - ref).abs().max().item()
    eb = (yb.double() - ref).abs().max().item()
    ta, tb = graph_ms(lambda: a(x, 1)), graph_ms(lambda: b(x, 1))
    tt = graph_ms(lambda: torch.softmax(x, 1))
    print(f"{path} {str(dt)[6:]} {M}x{N}: divide {ta*1e3:.1f} us ({gb/(ta*1e-3)/bw*100:.0f}%), reciprocal {tb*1e3:.1f} us "
          f"({gb/(tb*1e-3)/bw*100:.0f}%) {ta/tb:.3f}x; torch {tt*1e3:.1f}; max err {ea:.2e} / {eb:.2e}; same bits {torch.equal(ya, yb)}", flush=True)
