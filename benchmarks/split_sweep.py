"""Where the split path pays: forced fused vs forced split launches, on a GPU.

    PYTHONPATH=. python benchmarks/split_sweep.py [--json out.json]

The split path (chunks of a row over several programs, a finish pass, and for ops with
outputs over the row a third sweep) fills the GPU when there are few rows, at the cost of
two or three launches. For each op, dtype, rows and row length: GPU time (CUDA graphs) and
eager time per call (calls back to back: the host's launch cost where it exceeds the GPU
time) of each path, and whether the two give the same bits (they must: the same order).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_run import cpu_us, graph_ms  # noqa: E402

PATHS = {"fused": 0, "split": 1 << 62}


def main() -> None:
    from redgen.runtime.loader import load

    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=None)
    opts = ap.parse_args()
    print(f"device: {torch.cuda.get_device_name()}")
    rows_out = []
    for op, dtype in (("softmax", torch.bfloat16), ("logsumexp", torch.float32), ("argmax", torch.bfloat16),
                      ("mean", torch.float32)):
        mod = importlib.import_module(load(op, "cuda").__module__)
        fn, natural = getattr(mod, op), mod.SPLIT_BELOW
        for rows in (1, 8, 32, 128):
            for n in (16384, 32000, 65536, 151936, 1 << 20):
                x = torch.randn(rows, n, device="cuda").to(dtype)
                res = {}
                for path, below in PATHS.items():
                    mod.SPLIT_BELOW = below
                    call = functools.partial(fn, x, -1)
                    res[path] = (call(), graph_ms(call) * 1e3, cpu_us(call, 300))
                mod.SPLIT_BELOW = natural
                same = torch.equal(res["fused"][0], res["split"][0])
                r = dict(op=op, dtype=str(dtype).removeprefix("torch."), rows=rows, n=n, chunks=-(-n // 4096),
                         fused_gpu_us=res["fused"][1], split_gpu_us=res["split"][1],
                         fused_eager_us=res["fused"][2], split_eager_us=res["split"][2], bitwise_equal=same)
                rows_out.append(r)
                print(" | ".join(str(round(v, 1)) if isinstance(v, float) else str(v) for v in r.values()), flush=True)
    if opts.json:
        Path(opts.json).write_text(json.dumps(dict(device=torch.cuda.get_device_name(), rows=rows_out), indent=1))


if __name__ == "__main__":
    main()
