"""Run 176 (stop 53): softmax and log_softmax's cols block, tile K 16 (shipped) against 8 (a kernel shape:
at 16 their cols partial kernel takes 255 registers and a 216-232 byte stack under triton 3.6.0's ptxas,
at 8 128 registers and none). Bits against the shipped module."""
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

SMOKE = "--smoke" in sys.argv
DEV = "cpu" if SMOKE else "cuda"
COLS = [(2, 65536, 64), (4, 65536, 64), (64, 40000, 16), (256, 40000, 64), (16, 151936, 32), (8, 151936, 64)]
if SMOKE:
    COLS = [(2, 33000, 3)]


def main():
    from gpu_run import copy_bandwidth, graph_ms, load
    from tests.tolerances import assert_accurate

    t0 = time.time()
    cbw = float("nan") if SMOKE else copy_bandwidth()
    print(f"device {'cpu' if SMOKE else torch.cuda.get_device_name()}; copy bandwidth {cbw:.0f} GB/s")
    print("point | torch us | K16 (shipped) us | K8 us | K8/K16 | K8/torch | bits equal | accurate | row alone")
    for op in ("softmax", "log_softmax"):
        mods = {"k16": load(Path(f"generated/cuda/{op}.py")), "k8": load(Path(f"_scratch/r176/sm8/out/cuda/{op}.py"))}
        tfn = getattr(torch, op)
        for shape in COLS:
            for dt in (torch.float32, torch.bfloat16):
                g = torch.Generator(device=DEV).manual_seed(0)
                x = (torch.randn(*shape, device=DEV, generator=g) * 3).to(dt)
                ref = tfn(x.double(), dim=1)
                ys = {k: getattr(m, op)(x, dim=1) for k, m in mods.items()}
                same = torch.equal(ys["k8"], ys["k16"])
                acc = ""
                for k in mods:
                    try:
                        assert_accurate(ys[k], ref, dt)
                        acc += "T"
                    except AssertionError:
                        acc += "F"
                alone = "".join("T" if torch.equal(getattr(m, op)(x[:1].contiguous(), dim=1), ys[k][:1]) else "F"
                                for k, m in mods.items())
                ts = {k: float("nan") if SMOKE else graph_ms(lambda m=m: getattr(m, op)(x, dim=1)) * 1e3
                      for k, m in mods.items()}
                tt = float("nan") if SMOKE else graph_ms(lambda: tfn(x, dim=1)) * 1e3
                print(f"{op} {str(dt)[6:]} {'x'.join(map(str, shape))} | {tt:.1f} | {ts['k16']:.1f} | {ts['k8']:.1f} | "
                      f"{ts['k8'] / ts['k16']:.3f} | {ts['k8'] / tt:.3f} | {same} | {acc} | {alone}", flush=True)
    print(f"took {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
