"""Run 214: fp8_quant's divisions on the GPU: Triton's `/` (div.full.f32, shipped) against torch's IEEE
division, bit for bit, and the cost of div_rn (rn) or of a row reciprocal with an fma correction (mk)."""
import importlib.util, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path.cwd() / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402


def load(p):
    s = importlib.util.spec_from_file_location("fp8_quant", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def ref(x):
    xf = x.float()
    s = torch.clamp(xf.abs().amax(-1, keepdim=True) / 448.0, min=1 / (448 * 512))
    return (xf / s).clamp(-448, 448).to(torch.float8_e4m3fn), s


print("device", torch.cuda.get_device_name(), flush=True)
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
V = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else ("now", "rn", "mk")
mods = {v: load(Path(f"_scratch/r214/fp8_quant_{v}.py")) for v in V}
print("| point | torch us | " + " | ".join(f"{v} us (% copy), q / scale bits != torch" for v in V) + " |", flush=True)
for dt, m, n in (("bf16", 4096, 32000), ("bf16", 4096, 4096), ("f32", 4096, 8192), ("bf16", 16384, 8192)):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = (torch.randn(m, n, device="cuda", generator=g) * 3).to({"bf16": torch.bfloat16, "f32": torch.float32}[dt])
    rq, rs = ref(x)
    cells = []
    tt = graph_ms(lambda: ref(x)) * 1e3
    for v in V:
        f = mods[v].fp8_quant
        q, s = f(x, -1)
        dq = (q.view(torch.uint8) != rq.view(torch.uint8)).sum().item()
        ds = (s.reshape(-1) != rs.reshape(-1)).sum().item()
        t = graph_ms(lambda: f(x, -1)) * 1e3
        nbytes = x.numel() * (x.element_size() + 1)
        cells.append(f"{t:.2f} ({nbytes / (t * 1e-6) / 1e9 / bw * 100:.0f}%), {dq} / {ds}")
    print(f"| {dt} {m} x {n} | {tt:.2f} | " + " | ".join(cells) + " |", flush=True)
