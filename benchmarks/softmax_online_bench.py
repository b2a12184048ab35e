"""GPU check of the online-softmax combiner: softmax, log_softmax and logsumexp built with
`reduce N: (m, s) = softmax_stats(x)` (one read of the row for the statistics) against the
same ops built from main's two-reduction specs (max, then sum(exp(x - m)): two reads) and
torch eager.

    python benchmarks/softmax_online_bench.py --old DIR [--out DIR] [--quick]

DIR holds main's generated cuda modules saved as softmax.py, log_softmax.py, logsumexp.py
(`git show main:generated/cuda/softmax.py > DIR/softmax.py`, ...); the new ones are
imported from generated/cuda of this working tree. Prints one markdown table of GPU time
(CUDA graphs, median) per op, dtype and shape; accuracy of the new kernels against float64
(tests/tolerances.py); and bitwise batch invariance of the new kernels (a row alone, and
a few rows, against the same rows inside the large batch: fused vs split path).
Needs a CUDA device, torch and triton (not redgen).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import torch
from triton.testing import do_bench_cudagraph

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from tolerances import assert_accurate  # noqa: E402  (one place for per-dtype tolerances)

OPS = ("softmax", "log_softmax", "logsumexp")
DT = {"bf16": torch.bfloat16, "f32": torch.float32}
ROWS = (1, 32, 4096, 16384)
NS = (4096, 32000)


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def torch_fn(op: str):
    if op == "logsumexp":
        return lambda x: torch.logsumexp(x, -1)
    return lambda x: getattr(torch, op)(x, -1)


def gen_fn(mod, op: str):
    f = getattr(mod, op)
    return lambda x: f(x, -1)


def graph_us(fn, rep: int) -> float:
    """GPU time alone: the call replayed from a CUDA graph (no Python, no launch overhead)."""
    return do_bench_cudagraph(fn, rep=rep, return_mode="median") * 1e3


def invariance(fn, n: int, dtype) -> str:
    """A row alone, 3 rows and 64 rows against the same rows of a 4096-row batch (the
    launcher takes the split path below 264 programs, the fused one above)."""
    torch.manual_seed(1)
    x = torch.randn(4096, n, device="cuda").to(dtype)
    full = fn(x)
    for sl in (slice(0, 1), slice(41, 42), slice(0, 3), slice(100, 164)):
        if not torch.equal(fn(x[sl].clone()), full[sl]):
            return f"DIFFERS at rows {sl.start}:{sl.stop}"
    return "bitwise equal"


def accuracy(fn, op: str, n: int, dtype) -> str:
    torch.manual_seed(2)
    x = (torch.randn(64, n, device="cuda") * 4).to(dtype)
    ref = torch_fn(op)(x.double())
    try:
        assert_accurate(fn(x), ref, dtype)
    except AssertionError as e:
        return f"FAIL {str(e).splitlines()[0][:80]}"
    return "ok"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", type=Path, required=True)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    dev = torch.cuda.get_device_name()
    print(f"device: {dev}; torch {torch.__version__}")
    rep = 20 if args.quick else 40
    rows = (1, 4096) if args.quick else ROWS
    results = []
    checks = []
    for op in OPS:
        new = gen_fn(load(ROOT / "generated" / "cuda" / f"{op}.py", f"new_{op}"), op)
        old = gen_fn(load(args.old / f"{op}.py", f"old_{op}"), op)
        ref = torch_fn(op)
        for dname, dtype in DT.items():
            for n in NS:
                checks.append({"op": op, "dtype": dname, "N": n, "invariance": invariance(new, n, dtype),
                               "accuracy": accuracy(new, op, n, dtype)})
                for m in rows:
                    x = torch.randn(m, n, device="cuda").to(dtype)
                    t = {name: graph_us(lambda f=f, x=x: f(x), rep) for name, f in
                         (("torch", ref), ("old", old), ("new", new))}
                    results.append({"op": op, "dtype": dname, "rows": m, "N": n, **t})
                    print(f"{op:12s} {dname:5s} {m:6d} x {n:6d}  torch {t['torch']:9.1f} us  old {t['old']:9.1f} us"
                          f"  new {t['new']:9.1f} us  old/new {t['old'] / t['new']:5.2f}", flush=True)
                    del x
    lines = [f"Device: {dev} (torch {torch.__version__}). GPU time per call, us, CUDA-graph replay, median.", "",
             "| op | dtype | rows x N | torch eager | main (2 reads) | online (1 read) | main / online | "
             "torch / online |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['op']} | {r['dtype']} | {r['rows']} x {r['N']} | {r['torch']:.1f} | {r['old']:.1f} | "
                     f"{r['new']:.1f} | {r['old'] / r['new']:.2f} | {r['torch'] / r['new']:.2f} |")
    lines += ["", "| op | dtype | N | accuracy vs float64 | batch invariance (rows alone vs in 4096) |",
              "|---|---|---|---|---|"]
    lines += [f"| {c['op']} | {c['dtype']} | {c['N']} | {c['accuracy']} | {c['invariance']} |" for c in checks]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "softmax_online.md").write_text(text + "\n")
        (args.out / "softmax_online.json").write_text(json.dumps({"device": dev, "timings": results,
                                                                  "checks": checks}, indent=1))


if __name__ == "__main__":
    main()
