"""The row kernel (a row held on chip, read once) on a GPU: its bits against the chunked
kernels, its GPU time against them, torch and Liger, and a sweep of its schedule knobs.

    python benchmarks/row_sweep.py [--prev DIR] [--out DIR] [--budget-s 420]

Per op (rms_norm, layer_norm, softmax, log_softmax, add_rms_norm), dtype and rows x N:
- bits: the natural call (the row kernel where the row fits) equals, with torch.equal, the
  same module with ROW_MAX_TILES = 0 on its fused path (SPLIT_BELOW = 0) and on its split
  path, and row 0 alone equals row 0 in the batch: what the certificate claims, compiled;
- time (CUDA graphs, median): the module as built ("default"), each knob setting
  (ROW_ELEMS, ROW_WARP_LANES), the chunked kernels of the same module, the previous landing's module (--prev: its generated/cuda
  files), torch, Liger (when importable); GB/s against the copy bandwidth of the same run.
Prints a table per point and writes sweep.json / sweep.md under --out.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: N812

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import DT, copy_bandwidth, graph_ms, load  # noqa: E402

EPS = 1e-5
SETTINGS = [(2048, 64), (2048, 32), (2048, 128), (8192, 128)]
POINTS = [(m, n) for n in (1024, 4096, 8192) for m in (1, 4096, 16384)]


def calls(op, mod, x, w, b, r):
    """(redgen call, torch call, liger call or None) for one op."""
    fn = getattr(mod, op)
    liger = None
    try:
        if op == "rms_norm":
            from liger_kernel.ops.rms_norm import LigerRMSNormFunction

            liger = lambda: LigerRMSNormFunction.apply(x, w, EPS, 0.0, "llama", False)  # noqa: E731
        elif op == "layer_norm":
            from liger_kernel.ops.layer_norm import LigerLayerNormFunction

            liger = lambda: LigerLayerNormFunction.apply(x, w, b, EPS)  # noqa: E731
        elif op == "softmax":
            from liger_kernel.ops.softmax import LigerSoftmaxFunction

            liger = lambda: LigerSoftmaxFunction.apply(x)  # noqa: E731
    except ImportError:
        liger = None
    if op == "rms_norm":
        return (lambda: fn(x, w, dim=-1, eps=EPS)), (lambda: F.rms_norm(x, (x.shape[-1],), w, EPS)), liger
    if op == "layer_norm":
        return ((lambda: fn(x, w, b, dim=-1, eps=EPS)[0]),
                (lambda: F.layer_norm(x, (x.shape[-1],), w, b, EPS)), liger)
    if op == "add_rms_norm":
        def ref():
            h = x + r
            return h, F.rms_norm(h, (x.shape[-1],), w, EPS)
        return (lambda: fn(x, r, w, dim=-1, eps=EPS)), ref, None
    return (lambda: fn(x, -1)), (lambda: getattr(torch, op)(x, -1)), liger


def first(y):
    return y if isinstance(y, torch.Tensor) else y[0]


def flat(y):
    return tuple(y) if isinstance(y, (tuple, list)) else (y,)


def equal(a, b) -> bool:
    return all(torch.equal(p, q) for p, q in zip(flat(a), flat(b), strict=True))


def with_knobs(mod, knobs, fn):
    old = {k: getattr(mod, k) for k in knobs}
    for k, v in knobs.items():
        setattr(mod, k, v)
    try:
        return fn()
    finally:
        for k, v in old.items():
            setattr(mod, k, v)


def point(op, mod, prev, dt, m, n, timing):
    g = torch.Generator(device="cuda").manual_seed(m * 31 + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
    r = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
    w = torch.randn(n, device="cuda", generator=g).to(DT[dt])
    b = torch.randn(n, device="cuda", generator=g).to(DT[dt])
    ours, ref, liger = calls(op, mod, x, w, b, r)
    row = {"op": op, "dtype": dt, "rows": m, "N": n,
           "path": mod._schedule(m, n, 1, 4)[2] + ("/split" if mod._schedule(m, n, 1, 4)[6] else "")}
    y = ours()
    fused = with_knobs(mod, {"ROW_MAX_TILES": 0, "SPLIT_BELOW": 0}, ours)
    split = with_knobs(mod, {"ROW_MAX_TILES": 0, "SPLIT_BELOW": 1 << 62}, ours)
    row["row==fused"] = equal(y, fused)
    row["row==split"] = equal(y, split)
    xs = calls(op, mod, x[:1].clone(), w, b, r[:1].clone())[0]()
    row["alone==batch"] = all(torch.equal(p[:1], q[:1]) for p, q in zip(flat(xs), flat(y), strict=True))
    want = first(ref())
    row["max_err_vs_torch"] = float((first(y).float() - want.float()).abs().max())
    if not timing:
        return row
    nbytes = sum(t.numel() * t.element_size() for t in flat(y)) + x.numel() * x.element_size() * (
        2 if op == "add_rms_norm" else 1)
    row["torch_us"] = graph_ms(ref) * 1e3
    if liger is not None:
        try:
            row["liger_us"] = graph_ms(liger) * 1e3
        except Exception as e:  # noqa: BLE001 - Liger refuses some shapes
            row["liger_us"] = float("nan")
            print(f"liger {op} {m}x{n}: {type(e).__name__}", flush=True)
    row["chunked_us"] = with_knobs(mod, {"ROW_MAX_TILES": 0}, lambda: graph_ms(ours)) * 1e3
    if prev is not None:
        row["prev_us"] = graph_ms(calls(op, prev, x, w, b, r)[0]) * 1e3
    for e, lw in SETTINGS:
        row[f"row_{e}_{lw}_us"] = with_knobs(mod, {"ROW_ELEMS": e, "ROW_WARP_LANES": lw},
                                             lambda: graph_ms(ours)) * 1e3
    row["default_us"] = graph_ms(ours) * 1e3  # the module's own knobs
    row["best_setting_us"] = min(row[f"row_{e}_{lw}_us"] for e, lw in SETTINGS)
    row["GBps_default"] = nbytes / (row["default_us"] * 1e-6) / 1e9
    row["torch/default"] = row["torch_us"] / row["default_us"]
    if "liger_us" in row and not math.isnan(row["liger_us"]):
        row["liger/default"] = row["liger_us"] / row["default_us"]
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--prev", help="directory of the previous landing's generated/cuda modules")
    ap.add_argument("--out")
    ap.add_argument("--ops", default="rms_norm,layer_norm,softmax,log_softmax,add_rms_norm")
    ap.add_argument("--budget-s", type=float, default=420.0)
    args = ap.parse_args()
    start = time.time()
    bw = copy_bandwidth()
    print(f"device {torch.cuda.get_device_name()}, torch {torch.__version__}, copy bandwidth {bw:.0f} GB/s",
          flush=True)
    rows = []
    for op in args.ops.split(","):
        mod = load(ROOT / "generated" / "cuda" / f"{op}.py")
        prev = load(Path(args.prev) / f"{op}.py") if args.prev and (Path(args.prev) / f"{op}.py").exists() else None
        for dt in ("f32", "bf16"):
            for m, n in POINTS:
                timing = time.time() - start < args.budget_s
                try:
                    row = point(op, mod, prev, dt, m, n, timing)
                except Exception as e:  # noqa: BLE001 - one failing point must not hide the others
                    row = {"op": op, "dtype": dt, "rows": m, "N": n, "error": f"{type(e).__name__}: {e}"[:300]}
                rows.append(row)
                print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}),
                      flush=True)
    bad = [r for r in rows if not (r.get("row==fused") and r.get("row==split") and r.get("alone==batch"))]
    print(f"\n{len(rows)} points, {len(bad)} with a bitwise mismatch or error", flush=True)
    for key in ("torch/default", "liger/default"):
        vals = [r[key] for r in rows if key in r]
        if vals:
            geo = math.exp(sum(math.log(v) for v in vals) / len(vals))
            print(f"geomean {key}: {geo:.3f} over {len(vals)} points; below 1 at {sum(v < 1 for v in vals)}")
    for e, lw in SETTINGS:
        vals = [r["best_setting_us"] / r[f"row_{e}_{lw}_us"] for r in rows if f"row_{e}_{lw}_us" in r]
        if vals:
            print(f"setting ROW_ELEMS={e} ROW_WARP_LANES={lw}: geomean best/this {math.exp(sum(map(math.log, vals)) / len(vals)):.3f}")
    for key in ("chunked_us", "prev_us"):
        vals = [r[key] / r["default_us"] for r in rows if key in r]
        if vals:
            print(f"geomean {key[:-3]}/row: {math.exp(sum(map(math.log, vals)) / len(vals)):.3f}")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "sweep.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "copy_GBps": bw,
                                                    "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
