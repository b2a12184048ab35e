"""UNROLL (tiles a chunk walk loads together) on a GPU: bits and GPU time per value.

    python benchmarks/unroll_sweep.py [--out DIR] [--budget-s 240]

Per op (reductions over the last dim that walk chunks: sum, amax, argmax, logsumexp,
softmax, log_softmax at vocabulary sizes), dtype and rows x N: the outputs for UNROLL = 1,
2, 4, 8 must be equal bit for bit (UNROLL only changes which loads are in flight together,
never an operation), each on the module's natural path; and the GPU time of each (CUDA
graphs, median) against torch's. Prints one JSON line per point, a geomean per UNROLL and
writes unroll.json under --out.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import DT, graph_ms, load  # noqa: E402

VALUES = (1, 2, 4, 8)
OPS = ("sum", "amax", "argmax", "logsumexp", "softmax", "log_softmax")
POINTS = ((4096, 32000), (1, 151936), (64, 65536), (4096, 16384))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--budget-s", type=float, default=240.0)
    args = ap.parse_args()
    start = time.time()
    print(f"device {torch.cuda.get_device_name()}", flush=True)
    rows = []
    for op in OPS:
        mod = load(ROOT / "generated" / "cuda" / f"{op}.py")
        fn, ref = getattr(mod, op), getattr(torch, op)
        own = mod.UNROLL
        for dt in ("f32", "bf16"):
            for m, n in POINTS:
                g = torch.Generator(device="cuda").manual_seed(m + n)
                x = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
                row = {"op": op, "dtype": dt, "rows": m, "N": n, "path": mod._schedule(m, n, 1, 4)[2]}
                outs = {}
                for u in VALUES:
                    mod.UNROLL = u
                    outs[u] = fn(x, -1)
                    if time.time() - start < args.budget_s:
                        row[f"u{u}_us"] = graph_ms(lambda: fn(x, -1)) * 1e3  # noqa: B023
                mod.UNROLL = own
                row["bits_equal"] = all(torch.equal(outs[u], outs[1]) for u in VALUES)
                if "u1_us" in row:
                    row["torch_us"] = graph_ms(lambda: ref(x, -1)) * 1e3  # noqa: B023
                rows.append(row)
                print(json.dumps({k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
    bad = [r for r in rows if not r["bits_equal"]]
    print(f"\n{len(rows)} points, {len(bad)} with other bits for some UNROLL")
    timed = [r for r in rows if all(f"u{u}_us" in r for u in VALUES)]
    for u in VALUES:
        if timed:
            geo = math.exp(sum(math.log(r["torch_us"] / r[f"u{u}_us"]) for r in timed) / len(timed))
            slower = sum(r[f"u{u}_us"] > r["torch_us"] for r in timed)
            print(f"UNROLL={u}: geomean torch/redgen {geo:.3f} over {len(timed)} points, slower than torch at {slower}")
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "unroll.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows},
                                                               indent=1))


if __name__ == "__main__":
    main()
