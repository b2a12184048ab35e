"""Run 171 (stop 52): var's cols kernels past 32768 elements (Welford; scripts/kernel_sass.py shows their
split-path partial kernel spilling: LDL 12127 / STL 10336 in its static counts) against torch."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
SHAPES = [(2, 65536, 64), (64, 40000, 16), (256, 40000, 64), (16, 151936, 8)] if not SMOKE else [(2, 33000, 3)]


def main():
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    mod = load(Path("generated/cuda/var.py"))
    print("op dtype shape | torch us | redgen us | ratio | % copy | accurate | row alone")
    for shape in SHAPES:
        for dt in (torch.float32, torch.bfloat16):
            g = torch.Generator(device=DEV).manual_seed(0)
            x = (torch.randn(*shape, device=DEV, generator=g) * 3).to(dt)
            y = mod.var(x, dim=1)
            try:
                assert_accurate(y, x.double().var(dim=1), dt)
                acc = "ok"
            except AssertionError as e:
                acc = "FAIL " + str(e).splitlines()[0][:40]
            alone = torch.equal(mod.var(x[:1].contiguous(), dim=1), y[:1])
            tr = float("nan") if SMOKE else graph_ms(lambda: mod.var(x, dim=1)) * 1e3
            tt = float("nan") if SMOKE else graph_ms(lambda: torch.var(x, dim=1)) * 1e3
            pct = x.numel() * x.element_size() / (tr * 1e-6) / 1e9 / cbw * 100
            print(f"var {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.2f} | {tr:.2f} | {tr / tt:.3f} | {pct:.0f} | "
                  f"{acc} | {alone}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
