"""Variants of one generated module, side by side on a GPU: bits and GPU time.

    python benchmarks/variant_bench.py --op argmax --variant prev=_scratch/argmax_prev.py \
        --variant now=generated/cuda/argmax.py [--points 4096x32000,1x151936] [--dtypes f32,bf16]

Per dtype and rows x N (a reduction over the last dim; M x N x K: over dim 1; attention: B x Lq x Lk, 32
query and 8 KV heads of 128, causal where Lq == Lk, against torch's SDPA): every variant's output on random
data and on data full of ties (small integers, a NaN row) must equal torch's bit for bit
(bit for bit: argmax/argmin indices, or any op whose torch result the variants should
reproduce exactly; --no-torch-bits for float outputs) and each other's; then the GPU time
of each (CUDA graphs, median) and torch's. Prints one JSON line per point and a geomean of
torch / variant per variant.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: N812

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import DT, graph_ms, load  # noqa: E402

POINTS = "4096x32000,4096x16384,4096x4096,64x65536,8x32000,1x151936"
# Ops called with weights (x, w[, b]) rather than (x, dim): how many, and torch's call.
WEIGHTS = {"rms_norm": 1, "layer_norm": 2}
TORCH = {
    "rms_norm": lambda x, w: F.rms_norm(x, x.shape[-1:], w, 1e-6),
    "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5),
    # the held modules (rows of up to 8192, which softmax and log_softmax hand them) against torch's op
    "softmax_held": torch.softmax,
    "log_softmax_held": torch.log_softmax,
    "vector_norm": lambda x, dim: torch.linalg.vector_norm(x, dim=dim),
    # var's and std's short rows (specs/var.red, std.red) against torch's op
    "var_held": torch.var,
    "std_held": torch.std,
}


def _same(a, b) -> bool:
    """Bit for bit (a NaN equals a NaN with the same bits; torch.equal says False there)."""
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if a.is_floating_point():
        bits = {2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()]
        return a.dtype == b.dtype and torch.equal(a.view(bits), b.view(bits))
    return torch.equal(a, b)


def _attention(b: int, lq: int, lk: int, dt: torch.dtype) -> list[tuple]:
    """(q, k, v) in flash-attn layout: random, then small integers (ties) scaled down."""
    g = torch.Generator(device="cuda").manual_seed(b * 7 + lq + lk)
    calls = []
    for ties in (False, True):
        qkv = []
        for heads, length in ((32, lq), (8, lk), (8, lk)):
            shape = (b, length, heads, 128)
            t = (
                torch.randint(-3, 4, shape, device="cuda", generator=g) / 4
                if ties
                else torch.randn(shape, device="cuda", generator=g)
            )
            qkv.append(t.to(dt))
        calls.append(tuple(qkv))
    return calls


def _sdpa(q, k, v):
    """torch's SDPA on flash-attn layout tensors, causal where the lengths are equal."""
    out = F.scaled_dot_product_attention(
        q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=q.shape[1] == k.shape[1], enable_gqa=True
    )
    return out.transpose(1, 2)


def _inputs(m: int, n: int, k: int, dt: torch.dtype) -> list[torch.Tensor]:
    """[m, n] (k == 0) or [m, n, k]: random, then ties with planted NaNs in row m // 2."""
    shape = (m, n, k) if k else (m, n)
    g = torch.Generator(device="cuda").manual_seed(m * 7 + n + k)
    x = torch.randn(shape, device="cuda", generator=g).to(dt)
    ties = torch.randint(-3, 4, shape, device="cuda", generator=g).to(dt)
    ties[m // 2, n // 3] = float("nan")
    ties[m // 2, n - 1] = float("nan")
    return [x, ties]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--op", required=True)
    ap.add_argument("--variant", action="append", required=True, help="name=path of a generated module")
    ap.add_argument("--points", default=POINTS)
    ap.add_argument("--dtypes", default="f32,bf16")
    ap.add_argument("--no-torch-bits", action="store_true")
    args = ap.parse_args()
    print(f"device {torch.cuda.get_device_name()}", flush=True)
    variants = {}
    for v in args.variant:
        name, path = v.split("=", 1)
        fn = getattr(load(ROOT / path), args.op)
        if args.op == "attention":
            fn = (lambda f: lambda q, k, v: f(q, k, v, causal=q.shape[1] == k.shape[1]))(fn)
        variants[name] = fn
    ref = _sdpa if args.op == "attention" else TORCH.get(args.op) or getattr(torch, args.op)
    rows = []
    for dt in args.dtypes.split(","):
        for point in args.points.split(","):
            # rows x N (reduce the last dim), or M x N x K (reduce dim 1: the cols kernels)
            m, n, k = (*(int(s) for s in point.split("x")), 0)[:3]
            g = torch.Generator(device="cuda").manual_seed(n)
            ws = [
                (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
                for _ in range(WEIGHTS.get(args.op, 0))
            ]
            if args.op == "attention":  # B x Lq x Lk
                calls = _attention(m, n, k, DT[dt])
            else:
                calls = [(x, *ws) if ws else (x, 1 if k else -1) for x in _inputs(m, n, k, DT[dt])]
            row = {"op": args.op, "dtype": dt, "rows": m, "N": n, **({"K": k} if k else {})}
            outs = {k: [f(*c) for c in calls] for k, f in variants.items()}
            first = next(iter(outs.values()))
            row["equal_each_other"] = all(_same(a, b) for o in outs.values() for a, b in zip(o, first, strict=True))
            if not args.no_torch_bits:
                want = [ref(*c) for c in calls]
                row["equal_torch"] = {
                    k: all(_same(a, b) for a, b in zip(o, want, strict=True)) for k, o in outs.items()
                }
            row["torch_us"] = graph_ms(lambda: ref(*calls[0])) * 1e3  # noqa: B023
            for k, f in variants.items():
                row[f"{k}_us"] = graph_ms(lambda: f(*calls[0])) * 1e3  # noqa: B023
            rows.append(row)
            print(json.dumps({k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
    for k in variants:
        geo = math.exp(sum(math.log(r["torch_us"] / r[f"{k}_us"]) for r in rows) / len(rows))
        slower = sum(r[f"{k}_us"] > r["torch_us"] for r in rows)
        print(f"{k}: geomean torch/variant {geo:.3f} over {len(rows)} points, slower than torch at {slower}")
    bad = [r for r in rows if not r["equal_each_other"] or not all(r.get("equal_torch", {}).values())]
    print(f"{len(rows)} points, {len(bad)} with a bits mismatch")


if __name__ == "__main__":
    main()
