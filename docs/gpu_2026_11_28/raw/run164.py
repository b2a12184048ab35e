"""Run 164: why the cols kernels' fold is slow at small K (run 163). shipped with COLS_UNROLL 8 (no fold),
fold2 (cols groups loaded twice, static loops), fold3 (the same as dynamic loops: no hoisted loads)."""
import os
import sys
sys.path.insert(0, os.getcwd()); sys.path.insert(0, os.getcwd() + "/benchmarks")
from pathlib import Path  # noqa: E402
import torch  # noqa: E402
from gpu_run import graph_ms, load  # noqa: E402

V = {"shipped": "generated/cuda", "shipped_cu8": "generated/cuda", "fold2": "_scratch/v_fold2/cuda", "fold3": "_scratch/v_fold3/cuda"}
PTS = [("logsumexp", (8, 32000, 4)), ("logsumexp", (1024, 20000, 2)), ("logsumexp", (64, 32000, 16)),
       ("softmax", (8, 65536, 4)), ("softmax", (4, 151936, 8)), ("logsumexp", (4096, 32000, 1))]
print(torch.cuda.get_device_name())
print("op dtype shape | " + " | ".join(V) + " (us) | fold3 bits = fold2")
for op, shp in PTS:
    mods = {}
    for k, d in V.items():
        mods[k] = load(Path(f"{d}/{op}.py"))
        if k == "shipped_cu8":
            mods[k].COLS_UNROLL = 8
    for dt in (torch.bfloat16, torch.float32):
        x = (torch.randn(*shp, device="cuda") * 3).to(dt)
        if shp[2] == 1:
            x = x[:, :, 0]
        ts = {k: graph_ms(lambda m=m: getattr(m, op)(x, dim=1)) * 1e3 for k, m in mods.items()}
        same = torch.equal(getattr(mods["fold3"], op)(x, dim=1), getattr(mods["fold2"], op)(x, dim=1))
        print(f"{op} {str(dt)[6:]} {'x'.join(map(str, shp))} | " + " | ".join(f"{ts[k]:.2f}" for k in V) + f" | {same}", flush=True)
