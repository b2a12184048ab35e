"""Run 211: argmax with wider tiles (spec variants: tile N, warps); any tree selects the same pair."""
import importlib.util, sys
from pathlib import Path
import torch
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth  # noqa: E402

G = Path(__file__).parent / "gen" / "cuda"
VARS = {"shipped": (ROOT / "generated/cuda/argmax.py", "argmax")}
for p in sorted(G.glob("argmax_*.py")):
    VARS[p.stem[len("argmax_"):]] = (p, p.stem)


def load(p):
    s = importlib.util.spec_from_file_location(p.stem, p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


fns = {k: getattr(load(p), a) for k, (p, a) in VARS.items()}
print("device", torch.cuda.get_device_name(), flush=True)
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
DT = {"bf16": torch.bfloat16, "f32": torch.float32, "f16": torch.float16}
PTS = [(16384, 8192), (16384, 16384), (4096, 32000), (1024, 151936), (2048, 4096), (8, 32000), (1, 8192), (32, 12000), (256, 16384), (64, 151936)]
print("| point | torch | " + " | ".join(VARS) + " |", flush=True)
print("|---" * (len(VARS) + 2) + "|")
bad = 0
for dt in ("bf16", "f32", "f16"):
    for m, n in PTS:
        g = torch.Generator(device="cuda").manual_seed(m * 7 + n)
        x = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
        t = torch.randint(-8, 8, (m, n), device="cuda", generator=g).to(DT[dt])
        t[m // 2, n // 3] = float("nan")
        want = [torch.argmax(x, -1), torch.argmax(t, -1)]
        ok = {}
        for k, f in fns.items():
            got = [f(x, -1), f(t, -1)]
            ok[k] = all(torch.equal(a, b) for a, b in zip(got, want)) and torch.equal(f(x[m // 2:m // 2 + 1].clone(), -1)[0], want[0][m // 2])
        bad += not all(ok.values())
        tt = graph_ms(lambda: torch.argmax(x, -1)) * 1e3
        cells = []
        for k, f in fns.items():
            us = graph_ms(lambda f=f: f(x, -1)) * 1e3
            cells.append(f"{us:.2f} ({x.numel() * x.element_size() / (us * 1e-6) / 1e9 / bw * 100:.0f}%)" + ("" if ok[k] else " BITS"))
        print(f"| {dt} {m} x {n} | {tt:.2f} | " + " | ".join(cells) + " |", flush=True)
print("bits mismatches:", bad)
