"""Run 172 (stop 52): var's cols lane tree in two forms that do not spill (hand-patched modules, timing only):
vt1 the tl.split form (PAIRS False), vt2 a tl.reduce tree over the untransposed [LANES, BLOCK] tile, against shipped
(_scratch/vt1, _scratch/vt2: generated/cuda/var.py with raw/run172_vt1.patch, raw/run172_vt2.patch applied).
Run 171 (stop 52): var's cols kernels past 32768 elements (Welford; scripts/kernel_sass.py shows their
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
    mods = {"shipped": load(Path("generated/cuda/var.py")), "vt1": load(Path("_scratch/vt1/var.py")),
            "vt2": load(Path("_scratch/vt2/var.py"))}
    print("op dtype shape | torch us | shipped us | vt1 us | vt2 us | vt1/shipped | vt2/shipped | accurate | row alone | bits == shipped")
    for shape in SHAPES:
        for dt in (torch.float32, torch.bfloat16):
            g = torch.Generator(device=DEV).manual_seed(0)
            x = (torch.randn(*shape, device=DEV, generator=g) * 3).to(dt)
            ys = {k: m.var(x, dim=1) for k, m in mods.items()}
            acc, alone, same, ts = "", "", "", {}
            for k, m in mods.items():
                try:
                    assert_accurate(ys[k], x.double().var(dim=1), dt)
                    acc += "ok "
                except AssertionError as e:
                    acc += "FAIL " + str(e).splitlines()[0][:40]
                alone += f"{torch.equal(m.var(x[:1].contiguous(), dim=1), ys[k][:1])} "
                same += f"{torch.equal(ys[k], ys['shipped'])} "
                ts[k] = float("nan") if SMOKE else graph_ms(lambda m=m: m.var(x, dim=1)) * 1e3
            tt = float("nan") if SMOKE else graph_ms(lambda: torch.var(x, dim=1)) * 1e3
            print(f"var {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.2f} | {ts['shipped']:.2f} | {ts['vt1']:.2f} | "
                  f"{ts['vt2']:.2f} | {ts['vt1'] / ts['shipped']:.3f} | {ts['vt2'] / ts['shipped']:.3f} | {acc}| {alone}| {same}",
                  flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
