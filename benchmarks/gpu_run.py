"""One GPU run: correctness, bitwise batch invariance and speed of the generated
kernels against torch eager, with the bandwidth achieved and the device's own
copy bandwidth measured in the same run.

    python benchmarks/gpu_run.py [--variants DIR] [--out DIR]

Prints markdown tables; with --out also writes results.json and results.md.
Needs a CUDA device, torch and triton (not redgen).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import time
from pathlib import Path

import torch
import triton
from triton.testing import do_bench

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from tolerances import assert_accurate  # noqa: E402  (one place for per-dtype tolerances)

DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
TORCH = {"mean": torch.mean, "sum": torch.sum}
POINTS = [  # (label, shape for batch M, dim)
    ("(M, 4096, 16) dim=1", lambda m: (m, 4096, 16), 1),
    ("(M, 4096) dim=-1", lambda m: (m, 4096), -1),
]
BATCHES = (1, 32, 2048)


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def median_ms(fn) -> float:
    return do_bench(fn, warmup=10, rep=60, return_mode="median")


def graph_ms(fn) -> float:
    """GPU time alone: the call replayed from a CUDA graph (no Python, no launch overhead)."""
    from triton.testing import do_bench_cudagraph

    return do_bench_cudagraph(fn, rep=60, return_mode="median")


def cpu_us(fn, n: int = 200) -> float:
    """Host time per call (launch overhead): n calls back to back, then one sync."""
    fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / n * 1e6


def host_us(fn, n: int = 100, batches: int = 3) -> float:
    """Host time per call, the fastest of `batches` batches of `n` calls (cpu_us each): what else the
    host does (an interrupt, a collector pass) only adds to a batch, so the fastest is the call's own
    cost. One batch of 200 scattered by up to 30 us between neighbouring points (run 182)."""
    return min(cpu_us(fn, n) for _ in range(batches))


def copy_bandwidth() -> float:
    """Device-to-device copy, bytes read + written per second (GB/s)."""
    x = torch.empty(1 << 28, dtype=torch.float32, device="cuda")
    y = torch.empty_like(x)
    ms = median_ms(lambda: y.copy_(x))
    return 2 * x.numel() * 4 / (ms * 1e-3) / 1e9


def speed(op: str, fn, dtype: str) -> list[dict]:
    rows = []
    for label, shape_of, dim in POINTS:
        for m in BATCHES:
            x = torch.randn(shape_of(m), device="cuda").to(DT[dtype])
            y = fn(x, dim)
            ref = TORCH[op](x.double(), dim)
            try:
                assert_accurate(y, ref, DT[dtype])
                accurate = True
            except AssertionError:
                accurate = False
            err = ((y.double() - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
            ours = median_ms(lambda x=x, dim=dim: fn(x, dim))
            theirs = median_ms(lambda x=x, dim=dim: TORCH[op](x, dim))
            ours_g = graph_ms(lambda x=x, dim=dim: fn(x, dim))
            theirs_g = graph_ms(lambda x=x, dim=dim: TORCH[op](x, dim))
            host = cpu_us(lambda x=x, dim=dim: fn(x, dim))
            host_torch = cpu_us(lambda x=x, dim=dim: TORCH[op](x, dim))
            nbytes = x.numel() * x.element_size() + y.numel() * y.element_size()
            rows.append({"op": op, "dtype": dtype, "shape": label, "M": m, "accurate": accurate, "rel_err": err,
                         "redgen_ms": ours,
                         "torch_ms": theirs, "speedup": theirs / ours, "redgen_GBps": nbytes / (ours * 1e-3) / 1e9,
                         "torch_GBps": nbytes / (theirs * 1e-3) / 1e9, "graph_redgen_ms": ours_g,
                         "graph_torch_ms": theirs_g, "graph_speedup": theirs_g / ours_g,
                         "graph_redgen_GBps": nbytes / (ours_g * 1e-3) / 1e9, "host_us": host, "host_torch_us": host_torch})
    return rows


def invariance(op: str, fn, dtype: str, max_batch: int) -> list[dict]:
    """Rows of batch b (1..max_batch) equal the first b rows of the full batch, bit for bit."""
    out = []
    for label, shape, dim in (("(B, 4133, 3) dim=1", (max_batch, 4133, 3), 1),
                              ("(B, 4133) dim=-1", (max_batch, 4133), -1),
                              ("(B, 4096, 16) dim=1", (min(max_batch, 1024), 4096, 16), 1)):
        x = torch.randn(shape, device="cuda").to(DT[dtype])
        full = fn(x, dim)
        same_twice = torch.equal(full, fn(x, dim))
        bad = [b for b in range(1, shape[0] + 1) if not torch.equal(fn(x[:b], dim), full[:b])]
        out.append({"op": op, "dtype": dtype, "shape": label, "batches": f"1..{shape[0]}",
                    "mismatching_batches": len(bad), "first_bad": bad[:5], "run_to_run": same_twice})
    return out


def torch_invariance(op: str) -> dict:
    """For contrast: torch's own kernel, the seed's experiment (batch 1 vs 2048, fp32)."""
    x = torch.linspace(-100, 100, 2048 * 4096 * 16, device="cuda").reshape(2048, 4096, 16)
    one, full = TORCH[op](x[:1], 1), TORCH[op](x, 1)[:1]
    return {"op": f"torch.{op}", "shape": "(2048, 4096, 16) dim=1 f32", "batch1_equals_batch2048": torch.equal(one, full),
            "max_abs_diff": (one - full).abs().max().item()}


def md_table(rows: list[dict], cols: list[str]) -> str:
    def fmt(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(r[c]) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", help="directory of variant modules to time (schedule tuning)")
    ap.add_argument("--out")
    ap.add_argument("--max-batch", type=int, default=4096)
    args = ap.parse_args()
    t0 = time.time()
    props = torch.cuda.get_device_properties(0)
    head = {"device": props.name, "sms": props.multi_processor_count, "torch": torch.__version__,
            "triton": triton.__version__, "copy_GBps": copy_bandwidth()}
    print(f"# {head['device']} ({head['sms']} SMs), torch {head['torch']}, triton {head['triton']}; "
          f"device copy bandwidth {head['copy_GBps']:.0f} GB/s (read + write)\n")
    result = {"head": head}
    if args.variants:
        tune = []
        for path in sorted(Path(args.variants).glob("*.py")):
            mod = load(path)
            op = path.stem.split("_l")[0]
            rows = speed(op, getattr(mod, op), "f32") + speed(op, getattr(mod, op), "bf16")
            tune.append({"variant": path.stem,
                         "geomean_speedup": math.exp(sum(math.log(r["graph_speedup"]) for r in rows) / len(rows)),
                         "min_speedup": min(r["graph_speedup"] for r in rows),
                         **{f"{r['dtype']} {'d1' if 'dim=1' in r['shape'] else 'd-1'} M={r['M']}": r["graph_speedup"] for r in rows}})
            print(f"variant {path.stem}: geomean {tune[-1]['geomean_speedup']:.3f} min {tune[-1]['min_speedup']:.3f}", flush=True)
        result["tuning"] = tune
        print("\n## Schedule variants (GPU time from CUDA graphs; speedup = torch / redgen)\n")
        print(md_table(sorted(tune, key=lambda r: -r["geomean_speedup"]), list(tune[0].keys())))
    mods = {op: load(ROOT / "generated" / "cuda" / f"{op}.py") for op in ("mean", "sum")}
    speed_rows, inv_rows = [], []
    for op, mod in mods.items():
        fn = getattr(mod, op)
        for dtype in ("f32", "bf16"):
            speed_rows += speed(op, fn, dtype)
        for dtype in ("f32", "bf16", "f16"):
            inv_rows += invariance(op, fn, dtype, args.max_batch)
    result.update(speed=speed_rows, invariance=inv_rows, torch_contrast=[torch_invariance("mean"), torch_invariance("sum")])
    speed_md = md_table(speed_rows, ["op", "dtype", "shape", "M", "accurate", "rel_err", "graph_redgen_ms",
                                     "graph_torch_ms", "graph_speedup", "graph_redgen_GBps", "redgen_ms", "torch_ms",
                                     "speedup", "host_us", "host_torch_us"])
    inv_md = md_table(inv_rows, ["op", "dtype", "shape", "batches", "mismatching_batches", "first_bad", "run_to_run"])
    contrast_md = md_table(result["torch_contrast"], ["op", "shape", "batch1_equals_batch2048", "max_abs_diff"])
    geo = math.exp(sum(math.log(r["graph_speedup"]) for r in speed_rows) / len(speed_rows))
    geo_e = math.exp(sum(math.log(r["speedup"]) for r in speed_rows) / len(speed_rows))
    text = (f"## Speed (medians; speedup = torch / redgen; graph_*: GPU time replayed from a CUDA graph, "
            f"geomean {geo:.3f}; redgen_ms/torch_ms: eager do_bench, geomean {geo_e:.3f}; host_us: host time "
            f"per call)\n\n{speed_md}\n\n"
            f"## Bitwise batch invariance (torch.equal of every shared row)\n\n{inv_md}\n\n"
            f"## torch eager, for contrast\n\n{contrast_md}\n")
    print(text)
    print(f"(run took {time.time() - t0:.0f} s)")
    if args.out:
        Path(args.out, "results.json").write_text(json.dumps(result, indent=1))
        Path(args.out, "results.md").write_text(text)


if __name__ == "__main__":
    main()
