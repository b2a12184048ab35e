"""Every generated cuda op against torch eager: correctness, bitwise invariance, speed.

    python benchmarks/ops_bench.py [--ops a,b] [--out DIR] [--budget-s 450]
    TRITON_INTERPRET=1 python benchmarks/ops_bench.py --smoke     # CPU: tiny shapes, no timing

Discovers generated/cuda/*.py; an op without a torch reference in OPS is skipped (and
said so), and so is an op of OPS that is not generated yet. Per point (op, dtype, rows x
hidden, the reduction over the last dim):
- correctness: tests/tolerances.py assert_accurate against a float64 torch reference
  (argmax/argmin: the same indices as torch on the same input); recorded, never fatal;
- invariance: row 0 computed alone equals row 0 inside the batch, bit for bit;
- time: triton.testing.do_bench median (eager, launch overhead included) and
  do_bench_cudagraph median (GPU time alone), for redgen and torch; ratio = torch / redgen;
- bandwidth: (bytes of the inputs + bytes of the output) / time, and the device's own
  copy bandwidth (read + write) measured in the same run, for scale.
Prints a markdown table, the geomean and the worst ratio; --out writes results.json
and results.md. Shapes: rows 1, 32, 256, 4096, 16384 by hidden 4096, 8192 and 16384; vocab
32000 and 151936 for softmax, log_softmax and logsumexp; fp32 and bf16. The whole run
aims at ~8 minutes on an H200: past --budget-s the remaining points are listed as
skipped (time budget) rather than run. Timing helpers come from benchmarks/gpu_run.py.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

ROWS = (1, 32, 256, 4096, 16384)
# 16384: a hidden size (Llama 3 405B) and a length the row kernel holds since runs 54-58
# (docs/gpu_2026_11_26/README.md), where torch 2.11 had been faster than the chunked walks.
HIDDEN = (4096, 8192, 16384)
VOCAB = (32000, 151936)
VOCAB_OPS = ("softmax", "log_softmax", "logsumexp")
DTYPES = ("f32", "bf16")
SMOKE_ROWS = (1, 3)
SMOKE_HIDDEN = (300,)
SMOKE_VOCAB = (700,)
EPS = 1e-5


@dataclass(frozen=True)
class OpRef:
    """How to call one op: its inputs, redgen's launcher and torch's, the float64 reference."""

    name: str
    extra: str  # secondary inputs: "" (x only), "w" (rms_norm), "wb" (layer_norm)
    redgen: Callable  # (fn, x, w, b) -> tensor
    torch: Callable  # (x, w, b) -> tensor
    index: bool = False  # int64 indices, compared exactly
    same_shape: bool = False  # output over the reduce axis too (softmax, norms)


def _first(r):
    return r[0] if isinstance(r, tuple) else r


def _ops() -> dict[str, OpRef]:
    import torch
    import torch.nn.functional as F  # noqa: N812

    def red(name, torch_fn, index=False):
        return OpRef(name, "", lambda fn, x, w, b: fn(x, -1), lambda x, w, b: torch_fn(x, -1), index)

    return {o.name: o for o in (
        red("mean", torch.mean), red("sum", torch.sum), red("amax", torch.amax), red("amin", torch.amin),
        red("logsumexp", torch.logsumexp), red("var", torch.var), red("std", torch.std),
        red("argmax", torch.argmax, index=True), red("argmin", torch.argmin, index=True),
        OpRef("softmax", "", lambda fn, x, w, b: fn(x, -1), lambda x, w, b: torch.softmax(x, -1),
              same_shape=True),
        OpRef("log_softmax", "", lambda fn, x, w, b: fn(x, -1), lambda x, w, b: torch.log_softmax(x, -1),
              same_shape=True),
        OpRef("rms_norm", "w", lambda fn, x, w, b: _first(fn(x, w, dim=-1, eps=EPS)),
              lambda x, w, b: F.rms_norm(x, (x.shape[-1],), w, EPS), same_shape=True),
        OpRef("layer_norm", "wb", lambda fn, x, w, b: _first(fn(x, w, b, dim=-1, eps=EPS)),
              lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, EPS), same_shape=True),
    )}


def _peers(names: list[str]) -> dict[str, dict[str, Callable]]:
    """Other implementations of the same ops, by peer: {peer: {op: (x, w, b) -> tensor}}.

    liger: Liger-Kernel's forward functions (its wheel travels to the GPU machine, see
    docs/benchmarks.md); compile: torch.compile of torch's own op (dynamic=False: each point gets its own
    specialised kernel; the recompile limit is lifted below).
    """
    import torch

    peers: dict[str, dict[str, Callable]] = {}
    refs = _ops()
    if "liger" in names:
        try:
            from liger_kernel.ops.layer_norm import LigerLayerNormFunction
            from liger_kernel.ops.rms_norm import LigerRMSNormFunction
            from liger_kernel.ops.softmax import LigerSoftmaxFunction
        except ImportError as e:
            print(f"liger: not importable ({e}); its columns stay empty", flush=True)
        else:
            peers["liger"] = {
                "rms_norm": lambda x, w, b: LigerRMSNormFunction.apply(x, w, EPS, 0.0, "llama", False),
                "layer_norm": lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, EPS),
                "softmax": lambda x, w, b: LigerSoftmaxFunction.apply(x),
            }
    if "compile" in names:
        import torch._dynamo

        # One compiled specialisation per point: past dynamo's default limit (8) it would
        # silently run eager for the rest.
        for knob in ("recompile_limit", "cache_size_limit"):
            if hasattr(torch._dynamo.config, knob):
                setattr(torch._dynamo.config, knob, 10_000)
        peers["compile"] = {op: torch.compile(ref.torch, dynamic=False) for op, ref in refs.items()}
    return peers


def run_peer(name: str, fn: Callable, x, w, b, timing: bool) -> dict:
    """A peer at one point: bitwise invariance (row 0 alone vs in the batch) and its times."""
    import torch
    from gpu_run import graph_ms, median_ms

    try:
        y = _first(fn(x, w, b))
        alone = _first(fn(x[:1].clone(), w, b))
    except Exception as e:  # noqa: BLE001 - a peer that refuses a shape (Liger: N > 65536) has no entry there
        print(f"{name} at {tuple(x.shape)}: {type(e).__name__}: {str(e)[:120]}", flush=True)
        return {f"{name}_invariant": "n/a"}
    row = {f"{name}_invariant": "pass" if torch.equal(alone[:1], y[:1]) else "FAIL"}
    if timing:
        row[f"graph_{name}_ms"] = graph_ms(lambda: fn(x, w, b))
        row[f"{name}_ms"] = median_ms(lambda: fn(x, w, b))
    return row


def discover() -> list[str]:
    return sorted(p.stem for p in (ROOT / "generated" / "cuda").glob("*.py") if not p.name.startswith("_"))


def points(op: str, smoke: bool) -> list[tuple[str, int, int]]:
    rows = SMOKE_ROWS if smoke else ROWS
    hidden = list(SMOKE_HIDDEN if smoke else HIDDEN)
    if op in VOCAB_OPS:
        hidden += list(SMOKE_VOCAB if smoke else VOCAB)
    return [(dt, m, n) for dt in DTYPES for n in hidden for m in rows]


def run_point(ref: OpRef, fn, dtype: str, m: int, n: int, device: str, timing: bool,
              peers: dict[str, dict[str, Callable]] | None = None) -> dict:
    import torch
    from gpu_run import DT, cpu_us, graph_ms, median_ms
    from tolerances import assert_accurate

    g = torch.Generator(device=device).manual_seed(m * 7919 + n)
    dt = DT[dtype]
    x = torch.randn(m, n, device=device, generator=g).to(dt)
    w = torch.randn(n, device=device, generator=g).to(dt) if ref.extra else None
    b = torch.randn(n, device=device, generator=g).to(dt) if ref.extra == "wb" else None
    row = {"op": ref.name, "dtype": dtype, "rows": m, "hidden": n}
    y = ref.redgen(fn, x, w, b)
    try:
        if ref.index:
            ok = torch.equal(y, ref.torch(x, w, b))
        else:
            f64 = ref.torch(x.double(), None if w is None else w.double(), None if b is None else b.double())
            assert_accurate(y, f64, dt)
            ok = True
    except AssertionError:
        ok = False
    row["accurate"] = "pass" if ok else "FAIL"
    alone = ref.redgen(fn, x[:1], None if w is None else w, None if b is None else b)
    row["invariant"] = "pass" if torch.equal(alone[:1], y[:1]) else "FAIL"
    torch_alone = ref.torch(x[:1].clone(), w, b)
    row["torch_invariant"] = "pass" if torch.equal(torch_alone[:1], ref.torch(x, w, b)[:1]) else "FAIL"
    for peer, fns in (peers or {}).items():
        if ref.name in fns:
            row.update(run_peer(peer, fns[ref.name], x, w, b, timing))
    if not timing:
        return row
    row["host_us_redgen"] = cpu_us(lambda: ref.redgen(fn, x, w, b))
    row["host_us_torch"] = cpu_us(lambda: ref.torch(x, w, b))
    ours = median_ms(lambda: ref.redgen(fn, x, w, b))
    theirs = median_ms(lambda: ref.torch(x, w, b))
    ours_g = graph_ms(lambda: ref.redgen(fn, x, w, b))
    theirs_g = graph_ms(lambda: ref.torch(x, w, b))
    nbytes = sum(t.numel() * t.element_size() for t in (x, w, b, y) if t is not None)
    row.update(redgen_ms=ours, torch_ms=theirs, ratio=theirs / ours, graph_redgen_ms=ours_g,
               graph_torch_ms=theirs_g, graph_ratio=theirs_g / ours_g,
               redgen_GBps=nbytes / (ours_g * 1e-3) / 1e9, torch_GBps=nbytes / (theirs_g * 1e-3) / 1e9)
    best = [row[f"graph_{p}_ms"] for p in (peers or {}) if f"graph_{p}_ms" in row]
    if best:  # the best peer at this point (> 1: redgen faster than every peer)
        row["best_peer_ratio"] = min(best) / ours_g
    return row


def md_table(rows: list[dict], cols: list[str]) -> str:
    def fmt(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in xs) / len(xs)) if xs else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", help="comma-separated op names (default: every generated op)")
    ap.add_argument("--out", help="directory for results.json and results.md")
    ap.add_argument("--smoke", action="store_true", help="tiny shapes, no timing (CPU under TRITON_INTERPRET=1)")
    ap.add_argument("--budget-s", type=float, default=450.0, help="skip the remaining points past this many seconds")
    ap.add_argument("--peers", default="", help="comma-separated peers to run beside torch: liger, compile")
    ap.add_argument("--rows", help="comma-separated row counts (default: 1,32,256,4096,16384)")
    ap.add_argument("--dtypes", help="comma-separated dtypes (default: f32,bf16)")
    args = ap.parse_args(argv)
    t0 = time.time()

    import torch

    cuda = torch.cuda.is_available()
    if not cuda:
        if not args.smoke:
            ap.error("no CUDA device: only --smoke runs on CPU (under TRITON_INTERPRET=1)")
        os.environ["TRITON_INTERPRET"] = "1"  # before any generated module is imported
    device = "cuda" if cuda else "cpu"
    timing = not args.smoke
    from gpu_run import copy_bandwidth, load

    global ROWS, DTYPES
    if args.rows:
        ROWS = tuple(int(r) for r in args.rows.split(","))
    if args.dtypes:
        DTYPES = tuple(args.dtypes.split(","))
    peers = _peers([p for p in args.peers.split(",") if p])

    refs = _ops()
    generated = discover()
    wanted = args.ops.split(",") if args.ops else generated
    notes = []
    for op in wanted:
        if op not in generated:
            notes.append(f"{op}: not generated yet (no generated/cuda/{op}.py): skipped")
        elif op not in refs:
            notes.append(f"{op}: generated, but this script has no torch reference for it: skipped")
    ops = [op for op in wanted if op in generated and op in refs]
    head = {"device": torch.cuda.get_device_name(0) if cuda else "cpu (triton interpreter)", "torch": torch.__version__,
            "mode": "smoke" if args.smoke else "full"}
    if timing:
        head["copy_GBps"] = copy_bandwidth()
    print(f"# ops_bench on {head['device']}, torch {head['torch']}"
          + (f"; device copy bandwidth {head['copy_GBps']:.0f} GB/s (read + write)" if timing else "; smoke: no timing"),
          flush=True)
    rows, skipped = [], []
    for op in ops:
        fn = getattr(load(ROOT / "generated" / "cuda" / f"{op}.py"), op)
        for dtype, m, n in points(op, args.smoke):
            if time.time() - t0 > args.budget_s:
                skipped.append(f"{op} {dtype} {m}x{n}")
                continue
            try:
                row = run_point(refs[op], fn, dtype, m, n, device, timing, peers)
            except (torch.OutOfMemoryError, RuntimeError) as e:
                # assert_close wraps an OutOfMemoryError of its float64 copies in a RuntimeError
                if not isinstance(e, torch.OutOfMemoryError) and not isinstance(e.__cause__, torch.OutOfMemoryError):
                    raise
                skipped.append(f"{op} {dtype} {m}x{n} (out of memory)")
                if cuda:
                    torch.cuda.empty_cache()
                continue
            rows.append(row)
            print(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()), flush=True)
    if skipped:
        notes.append(f"skipped (time budget {args.budget_s:.0f} s or memory): {', '.join(skipped)}")
    cols = ["op", "dtype", "rows", "hidden", "accurate", "invariant", "torch_invariant"]
    cols += [f"{p}_invariant" for p in peers]
    if timing:
        cols += ["graph_redgen_ms", "graph_torch_ms", *[f"graph_{p}_ms" for p in peers], "graph_ratio",
                 "redgen_ms", "torch_ms", *[f"{p}_ms" for p in peers], "ratio", "best_peer_ratio", "redgen_GBps",
                 "torch_GBps", "host_us_redgen", "host_us_torch"]
    text = f"## ops_bench ({head['device']}, {head['mode']})\n\n"
    if timing:
        gr = [r["graph_ratio"] for r in rows]
        er = [r["ratio"] for r in rows]
        worst = min(rows, key=lambda r: r["graph_ratio"]) if rows else None
        bp = [r["best_peer_ratio"] for r in rows if "best_peer_ratio" in r]
        summary = {"geomean_graph_ratio": geomean(gr), "geomean_eager_ratio": geomean(er),
                   "geomean_best_peer_ratio": geomean(bp), "points_vs_peer": len(bp),
                   "slower_than_torch": sum(v < 1 for v in gr),
                   "worst_graph_ratio": worst["graph_ratio"] if worst else None,
                   "worst_point": f"{worst['op']} {worst['dtype']} {worst['rows']}x{worst['hidden']}" if worst else None}
        head.update(summary)
        text += (f"ratio = torch / redgen (> 1: redgen faster); graph_*: GPU time from CUDA graphs; "
                 f"GB/s = (inputs + output bytes) / graph time; device copy bandwidth {head['copy_GBps']:.0f} GB/s.\n\n"
                 f"geomean graph ratio {summary['geomean_graph_ratio']:.3f}, eager {summary['geomean_eager_ratio']:.3f}; "
                 f"worst graph ratio {summary['worst_graph_ratio'] or float('nan'):.3f} ({summary['worst_point']}); "
                 f"{summary['slower_than_torch']} of {len(gr)} points slower than torch on GPU time; against the best "
                 f"peer (best_peer_ratio, {len(bp)} points) geomean {summary['geomean_best_peer_ratio']:.3f}\n\n")
    failures = [r for r in rows if r["accurate"] != "pass" or r["invariant"] != "pass"]
    text += md_table(rows, cols) + "\n"
    text += f"\n{len(rows)} points, {len(failures)} with a failure.\n"
    for note in notes:
        text += f"\n- {note}"
    print("\n" + text)
    print(f"(run took {time.time() - t0:.0f} s)")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps({"head": head, "rows": rows, "notes": notes}, indent=1))
        (out / "results.md").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
