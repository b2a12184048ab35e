"""Every generated cuda op against torch eager and its peers: correctness, bitwise invariance, speed.

    python benchmarks/ops_bench.py [--ops a,b] [--out DIR] [--budget-s 450]
    python benchmarks/ops_bench.py --peers liger,compile --warm-procs 12 --out DIR  # docs/gpu_2026_11_28
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
  copy bandwidth (read + write) measured in the same run, for scale;
- peers (--peers): Liger-Kernel (rms_norm, layer_norm, add_rms_norm, softmax) and torch.compile,
  their invariance and times at the same point;
- host time per call (gpu_run.host_us), redgen's and torch's: the modules are executed from their
  files, outside sys.modules, so a repeated signature replays in Python (as a module imported
  without redgen does); `redgen.load`, the mode and a module imported where redgen is installed
  replay in C++ (redgen/runtime/fast_route.py), which benchmarks/host_time.py times.
Prints a markdown table, the geomean and the worst ratio, and a line per op against torch and
each peer (op_summary); --out writes results.json
and results.md. Shapes: rows 1, 32, 256, 4096, 16384 by hidden 4096, 8192 and 16384; vocab
32000 and 151936 for softmax, log_softmax and logsumexp; fp32 and bf16. Past --budget-s the
remaining points are listed as skipped (time budget) rather than run; --warm-procs compiles every
point's kernels in that many processes first, so the budget goes to timing (on an H200, 180 points
of four ops with both peers in 7 minutes). Timing helpers come from benchmarks/gpu_run.py.
"""

from __future__ import annotations

import argparse
import functools
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
    extra: str  # secondary inputs: "" (x only), "w" (rms_norm), "wb" (layer_norm), "rw" (add_rms_norm: r, w)
    redgen: Callable  # (fn, x, w, b) -> tensor
    torch: Callable  # (x, w, b) -> tensor
    index: bool = False  # int64 indices, compared exactly
    same_shape: bool = False  # output over the reduce axis too (softmax, norms)
    outputs: int = 1  # full-size outputs written (add_rms_norm: h and y), for the bytes moved


def _first(r):
    return r[0] if isinstance(r, tuple) else r


def _row0(t):
    """Row 0 alone of a per-row input (x, add_rms_norm's residual); a weight stays whole."""
    return t if t is None or t.dim() == 1 else t[:1].clone()


def _add_rms_norm(x, r, w):
    import torch.nn.functional as F  # noqa: N812

    h = x + r
    return F.rms_norm(h, (x.shape[-1],), w, EPS), h


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
        # The residual add and the norm of its sum (a decoder layer's seam); `b` carries the residual
        # r. Every implementation returns (y, h): the layer needs h, so torch.compile must write it
        # too. Compared on y (h = x + r is one rounding of an exact sum, the same bits everywhere).
        OpRef("add_rms_norm", "rw", lambda fn, x, w, b: fn(x, b, w, dim=-1, eps=EPS)[::-1],
              lambda x, w, b: _add_rms_norm(x, b, w), same_shape=True, outputs=2),
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
            from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction
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
                # (y, h): y first, as _first takes it
                "add_rms_norm": lambda x, w, b: LigerFusedAddRMSNormFunction.apply(x, b, w, EPS, 0.0, "llama", False),
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
        alone = _first(fn(_row0(x), w, _row0(b)))
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


def _inputs(ref: OpRef, dt, m: int, n: int, device: str):
    """x [m, n] and the op's secondary inputs (w, b), seeded by the point."""
    import torch

    g = torch.Generator(device=device).manual_seed(m * 7919 + n)
    x = torch.randn(m, n, device=device, generator=g).to(dt)
    w = torch.randn(n, device=device, generator=g).to(dt) if ref.extra else None
    b = None
    if ref.extra == "wb":
        b = torch.randn(n, device=device, generator=g).to(dt)
    elif ref.extra == "rw":  # a residual of the batch's shape: row 0 alone takes its first row
        b = torch.randn(m, n, device=device, generator=g).to(dt)
    return x, w, b


WARM_MAX_BYTES = 1 << 30  # points whose x is larger compile in the main process (memory of many at once)


def _warm(job: tuple) -> str:
    """In a child process: one call of redgen and of every peer at a point, which fills the
    on-disk caches (Triton's kernels, Inductor's graphs) the timed process then reads."""
    op, dtype, m, n, peer_names = job
    import torch
    from gpu_run import DT

    ref = _ops()[op]
    fn = getattr(_load_op(op), op)
    x, w, b = _inputs(ref, DT[dtype], m, n, "cuda")
    ref.redgen(fn, x, w, b)
    ref.redgen(fn, _row0(x), w, _row0(b))
    for peer in _cached_peers(peer_names).values():
        if op in peer:
            try:
                peer[op](x, w, b)
                peer[op](_row0(x), w, _row0(b))
            except Exception:  # noqa: BLE001 - a peer that refuses a shape says so in the timed run
                pass
    torch.cuda.synchronize()
    return f"{op} {dtype} {m}x{n}"


@functools.cache
def _cached_peers(names: tuple[str, ...]) -> dict[str, dict[str, Callable]]:
    """_peers once per process (a warming process takes many points)."""
    return _peers(list(names))


@functools.cache
def _load_op(op: str):
    """A generated module, loaded once per process."""
    from gpu_run import load

    return load(ROOT / "generated" / "cuda" / f"{op}.py")


def warm_caches(jobs: list[tuple], procs: int) -> None:
    """Compile every point's kernels in `procs` processes at once (one GPU, each its own context)
    before the timed run, which then takes them from the caches: the run's time goes to points."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    t = time.time()
    with ProcessPoolExecutor(procs, mp_context=mp.get_context("spawn")) as ex:
        done = list(ex.map(_warm, jobs))
    print(f"warmed {len(done)} points in {procs} processes: {time.time() - t:.0f} s", flush=True)


def run_point(ref: OpRef, fn, dtype: str, m: int, n: int, device: str, timing: bool,
              peers: dict[str, dict[str, Callable]] | None = None) -> dict:
    import torch
    from gpu_run import DT, graph_ms, host_us, median_ms
    from tolerances import assert_accurate

    dt = DT[dtype]
    x, w, b = _inputs(ref, dt, m, n, device)
    row = {"op": ref.name, "dtype": dtype, "rows": m, "hidden": n}
    y = _first(ref.redgen(fn, x, w, b))
    try:
        if ref.index:
            ok = torch.equal(y, _first(ref.torch(x, w, b)))
        else:
            f64 = _first(ref.torch(x.double(), None if w is None else w.double(), None if b is None else b.double()))
            assert_accurate(y, f64, dt)
            ok = True
    except AssertionError:
        ok = False
    row["accurate"] = "pass" if ok else "FAIL"
    alone = _first(ref.redgen(fn, _row0(x), w, _row0(b)))
    row["invariant"] = "pass" if torch.equal(alone[:1], y[:1]) else "FAIL"
    torch_alone = _first(ref.torch(_row0(x), w, _row0(b)))
    row["torch_invariant"] = "pass" if torch.equal(torch_alone[:1], _first(ref.torch(x, w, b))[:1]) else "FAIL"
    for peer, fns in (peers or {}).items():
        if ref.name in fns:
            row.update(run_peer(peer, fns[ref.name], x, w, b, timing))
    if not timing:
        return row
    row["host_us_redgen"] = host_us(lambda: ref.redgen(fn, x, w, b))
    row["host_us_torch"] = host_us(lambda: ref.torch(x, w, b))
    ours = median_ms(lambda: ref.redgen(fn, x, w, b))
    theirs = median_ms(lambda: ref.torch(x, w, b))
    ours_g = graph_ms(lambda: ref.redgen(fn, x, w, b))
    theirs_g = graph_ms(lambda: ref.torch(x, w, b))
    nbytes = sum(t.numel() * t.element_size() for t in (x, w, b) if t is not None)
    nbytes += ref.outputs * y.numel() * y.element_size()
    row.update(bytes=nbytes, redgen_ms=ours, torch_ms=theirs, ratio=theirs / ours, graph_redgen_ms=ours_g,
               graph_torch_ms=theirs_g, graph_ratio=theirs_g / ours_g,
               redgen_GBps=nbytes / (ours_g * 1e-3) / 1e9, torch_GBps=nbytes / (theirs_g * 1e-3) / 1e9)
    for p in peers or {}:  # > 1: redgen faster than that peer
        if f"graph_{p}_ms" in row:
            row[f"{p}_ratio"] = row[f"graph_{p}_ms"] / ours_g
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


SLOWER = 0.98  # a ratio below this counts as slower (do_bench medians of one run vary by ~1-2%)
LARGE_BYTES = 256 << 20  # a large shape moves this much at least: past any L2, at the memory's speed


def op_summary(rows: list[dict], peers: list[str], copy_gbps: float) -> str:
    """One line per op: GPU-time ratios against torch and each peer (geomean, points slower, the
    worst), the eager ratio, and the bandwidth of the large points as a share of the copy bandwidth."""
    cols = ["op", "points", "vs torch (geomean)", "slower than torch", "worst vs torch"]
    for p in peers:
        cols += [f"vs {p} (geomean)", f"slower than {p}", f"worst vs {p}"]
    cols += ["eager vs torch (geomean)", f"% of copy, points moving >= {LARGE_BYTES >> 20} MiB"]
    out = []
    for op in dict.fromkeys(r["op"] for r in rows):
        rs = [r for r in rows if r["op"] == op]

        def stats(key, rs=rs):
            have = [r for r in rs if key in r]
            if not have:
                return ["", "", ""]
            w = min(have, key=lambda r: r[key])
            return [f"{geomean([r[key] for r in have]):.3f}", f"{sum(r[key] < SLOWER for r in have)} of {len(have)}",
                    f"{w[key]:.2f} ({w['dtype']} {w['rows']}x{w['hidden']})"]

        line = [op, str(len(rs)), *stats("graph_ratio")]
        for p in peers:
            line += stats(f"{p}_ratio")
        large = [100 * r["redgen_GBps"] / copy_gbps for r in rs if r.get("bytes", 0) >= LARGE_BYTES]
        line += [f"{geomean([r['ratio'] for r in rs]):.3f}",
                 f"{min(large):.0f}-{max(large):.0f}% ({len(large)})" if large else "none"]
        out.append(line)
    return "\n".join(["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
                     + ["| " + " | ".join(line) + " |" for line in out])


def _sizes(text: str) -> tuple[int, ...]:
    """A flag's comma-separated positive sizes ("1,32,256"); argparse reports a bad one by value."""
    try:
        out = tuple(int(v) for v in text.split(","))
    except ValueError:
        out = ()
    if not out or min(out) < 1:
        raise argparse.ArgumentTypeError(f"expected comma-separated positive integers, got {text!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", help="comma-separated op names (default: every generated op)")
    ap.add_argument("--out", help="directory for results.json and results.md")
    ap.add_argument("--smoke", action="store_true", help="tiny shapes, no timing (CPU under TRITON_INTERPRET=1)")
    ap.add_argument("--budget-s", type=float, default=450.0, help="skip the remaining points past this many seconds")
    ap.add_argument("--peers", default="", help="comma-separated peers to run beside torch: liger, compile")
    ap.add_argument("--rows", type=_sizes, help="comma-separated row counts (default: 1,32,256,4096,16384)")
    ap.add_argument("--dtypes", help="comma-separated dtypes (default: f32,bf16)")
    ap.add_argument("--warm-procs", type=int, default=0,
                    help="compile the points' kernels in this many processes first (GPU runs; 0: as they come)")
    ap.add_argument("--hidden", type=_sizes, help="comma-separated reduce lengths (default: 4096,8192,16384; vocab ops add 32000,151936)")
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
    from gpu_run import copy_bandwidth

    global ROWS, DTYPES, HIDDEN
    if args.hidden:
        HIDDEN = args.hidden
    if args.rows:
        ROWS = args.rows
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
    if timing and args.warm_procs > 0:
        isz = {"f32": 4, "bf16": 2}
        warm_caches([(op, dt, m, n, tuple(peers)) for op in ops for dt, m, n in points(op, False)
                     if m * n * isz.get(dt, 4) <= WARM_MAX_BYTES], args.warm_procs)
    rows, skipped = [], []
    for op in ops:
        fn = getattr(_load_op(op), op)
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
                 "torch_GBps", "host_us_redgen", "host_us_torch", *[f"{p}_ratio" for p in peers]]
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
                 f"peer (best_peer_ratio, {len(bp)} points) geomean {summary['geomean_best_peer_ratio']:.3f}\n\n"
                 f"Per op (GPU time; a ratio is the other's time / redgen's, > 1: redgen faster; slower: "
                 f"below {SLOWER}):\n\n{op_summary(rows, list(peers), head['copy_GBps'])}\n\n")
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
