"""GPU sweep: every shipped cuda kernel, bitwise batch invariance over many batch sizes.

    python benchmarks/gpu_sweep.py [--dir generated/cuda] [--out DIR] [--jobs 13] [--quick]

For each generated module, each input dtype (f32, bf16, f16) and several reduce
lengths (below one chunk, exactly one chunk, one chunk plus a ragged tail,
several chunks, a prime; and layer_norm's (600, 4097)), the rows of a batch of
4096 are the reference; the op runs at every batch size 1..600 on the first rows
(the natural path: split below SPLIT_BELOW batch programs, fused above) and, at a
subset of batch sizes, with each path forced through the module's SPLIT_BELOW, and
every output must be bitwise equal to the reference's rows. Ops with a batch axis
after the reduce axis run the K > 1 kernel shape too ((B, N, 3), dim=1). Prints a
table of mismatches (the bar: 0), and with --cost the time of a few ops with and
without FMA contraction (enable_fp_fusion).

Needs a CUDA device, torch and triton, and the generated modules; not redgen, lark
or z3. Modules are swept in parallel processes (one per op): Triton compiles on the
CPU, and the kernels' bits do not depend on what else runs on the GPU.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

import torch

DT = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
DEVICE = "cuda"
BIG = 4096
SWEEP = range(1, 601)
FORCED_AT = (1, 2, 3, 7, 8, 31, 64, 127, 263, 264, 265, 300, 511, 600, BIG)
COLS_SWEEP = (*range(1, 41), 63, 64, 65, 263, 264, 600)


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"_sweep_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def lengths(mod) -> dict[str, int]:
    lanes = mod.LANES
    chunk = str(mod.CERTIFICATE["order"]["chunk"])
    if chunk.isdigit():
        c = int(chunk)
        return {"below one chunk": max(1, c // 2 + 3), "one chunk": c, "one chunk + 1": c + 1,
                "several chunks": 3 * c + 100, "prime": 5003 if c < 5003 else 2 * c + 9 + (c % 2)}
    return {"below the lanes": max(1, lanes // 2 + 1), "several tiles": 4 * lanes, "ragged": 4 * lanes + 1,
            "long": 3 * 4096 + 100, "prime": 5003}


def inputs(mod, op: str, b: int, n: int, k: int | None, dtype, seed: int):
    """The op's inputs for a batch of b rows: x (b, n) or (b, n, k); weights over the reduce axis."""
    gen = torch.Generator(device=DEVICE).manual_seed(seed)
    x_shape = (b, n) if k is None else (b, n, k)
    xs = [torch.randn(x_shape, generator=gen, device=DEVICE).to(dtype)]
    for _ in range(len(mod._INPUT_DTYPES) - 1):  # weight / bias over the reduce axis
        xs.append(torch.randn((n,), generator=gen, device=DEVICE).to(dtype))
    return xs


def bits(t: torch.Tensor) -> torch.Tensor:
    return t.view(torch.int16) if t.element_size() == 2 else (t.view(torch.int32) if t.element_size() == 4 else t)


def call(fn, xs, dim):
    y = fn(*xs, dim=dim)
    return y if isinstance(y, tuple) else (y,)


def _is_reduction(source: str) -> bool:
    """A reduction module: SPLIT_BELOW picks its path; attention (`_attn_*` kernels) has one too,
    but its own GPU checks."""
    # REDUCE_DIMS: a spec over several reduce axes (mean_2axes) fixes its dims: no `dim` to sweep.
    return "\nSPLIT_BELOW = " in source and "def _attn" not in source and "\nREDUCE_DIMS = " not in source


def sweep_module(job: tuple[str, str, bool, bool]) -> list[dict]:
    path, device, quick, control = job
    global DEVICE, BIG, SWEEP, FORCED_AT, COLS_SWEEP
    DEVICE = device
    if quick:  # a smoke test of this script under TRITON_INTERPRET=1 on a CPU
        BIG, SWEEP, FORCED_AT, COLS_SWEEP = 9, range(1, 4), (1, 9), (1, 2)
    mod = load(Path(path))
    op = mod.CERTIFICATE["op"]  # (a control module's file is named otherwise)
    fn = getattr(mod, op)
    has_after = hasattr(mod, "_k_cols_fused")
    default = mod.SPLIT_BELOW
    rows = []
    ns = lengths(mod)
    if quick:
        ns = dict(list(ns.items())[2:3])
    if op == "layer_norm" and not quick:
        ns = {**ns, "issue 10 case": 4097}
    only_dtypes = ()
    if control:  # a module built before this fix: the case only, to show the sweep sees it
        ns, only_dtypes = {"issue 10 case": 4097}, ("f32", "bf16")
    shapes = [("(B, N) dim=-1", None)] + ([("(B, N, 3) dim=1", 3)] if has_after else [])
    for shape_name, k in shapes:
        dim = -1 if k is None else 1
        for nname, n in ns.items():
            if k is not None and nname not in ("one chunk + 1", "ragged", "prime"):
                continue
            for dname, dtype in DT.items():
                if dtype not in next(iter(mod._INPUT_DTYPES.values())) or (only_dtypes and dname not in only_dtypes):
                    continue
                t0 = time.time()
                xs = inputs(mod, op, BIG, n, k, dtype, seed=n * 7 + (k or 0))
                ref = call(fn, xs, dim)
                refbits = [bits(r) for r in ref]
                bad = {}
                checked = 0
                sweep = SWEEP if k is None else COLS_SWEEP
                forced_at = FORCED_AT if k is None else (1, 7, 64, 600, BIG)
                forced_at = tuple(b for b in forced_at if b <= BIG)
                flags = []
                for b in sweep:
                    got = call(fn, [xs[0][:b], *xs[1:]], dim)
                    flags.append(torch.stack([(bits(g) != r[:b]).any() for g, r in zip(got, refbits, strict=True)]).any())
                    checked += 1
                for forced in (0, 1 << 62):  # fused, then split, at every batch size of forced_at
                    mod.SPLIT_BELOW = forced
                    try:
                        for b in forced_at:
                            got = call(fn, [xs[0][:b], *xs[1:]], dim)
                            flags.append(torch.stack([(bits(g) != r[:b]).any() for g, r in zip(got, refbits, strict=True)]).any())
                            checked += 1
                    finally:
                        mod.SPLIT_BELOW = default
                labels = ([f"B={b}" for b in sweep] + [f"B={b} fused" for b in forced_at]
                          + [f"B={b} split" for b in forced_at])
                got_flags = torch.stack(flags).cpu().tolist()
                for label, f in zip(labels, got_flags, strict=True):
                    if f:
                        bad[label] = True
                rows.append({"op": op + (" (control: built without enable_fp_fusion=False)" if control else ""),
                             "shape": shape_name, "N": n, "lengths": nname, "dtype": dname,
                             "checked": checked, "mismatches": len(bad), "examples": list(bad)[:6],
                             "seconds": round(time.time() - t0, 1)})
                del xs, ref, refbits
    return rows


def cost(dir_: Path) -> list[dict]:
    """Kernel time with FMA contraction off (as generated) and on (the same module, patched)."""
    from triton.testing import do_bench

    out = []
    for op in ("rms_norm", "layer_norm", "softmax", "mean"):
        path = dir_ / f"{op}.py"
        if not path.exists():
            continue
        off = load(path)
        src = path.read_text().replace("enable_fp_fusion=False", "enable_fp_fusion=True")
        patched = Path("/tmp") / f"_sweep_fusion_on_{op}.py"
        patched.write_text(src)
        on = load(patched)
        for b, n in ((32, 4096), (4096, 4096)):
            xs = inputs(off, op, b, n, None, torch.bfloat16, seed=1)
            f_off, f_on = getattr(off, op), getattr(on, op)
            t_off = do_bench(lambda f=f_off, xs=xs: f(*xs, dim=-1), warmup=25, rep=100)
            t_on = do_bench(lambda f=f_on, xs=xs: f(*xs, dim=-1), warmup=25, rep=100)
            out.append({"op": op, "shape": f"({b}, {n}) bf16", "fusion_off_ms": round(t_off, 4),
                        "fusion_on_ms": round(t_on, 4), "ratio": round(t_off / t_on, 3)})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=str(Path(__file__).resolve().parent.parent / "generated" / "cuda"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=13)
    ap.add_argument("--only", default=None, help="comma-separated op names")
    ap.add_argument("--cost", action="store_true")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--verbose", action="store_true", help="print every row of the table")
    ap.add_argument("--control", default=None, help="a layer_norm module built before the fix (swept at (B, 4097))")
    ap.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test of the script itself")
    args = ap.parse_args(argv)
    d = Path(args.dir)
    # The reductions (one row per program, fused/split paths through SPLIT_BELOW); contractions
    # and attention have their own GPU checks (benchmarks/matmul_bench.py, attention_bench.py).
    paths = sorted(p for p in d.glob("*.py") if p.stem != "__init__" and _is_reduction(p.read_text()))
    if args.only:
        paths = [p for p in paths if p.stem in args.only.split(",")]
    name = torch.cuda.get_device_name() if args.device == "cuda" else args.device
    print(f"device: {name}; torch {torch.__version__}; "
          f"triton {__import__('triton').__version__}; modules: {', '.join(p.stem for p in paths)}", flush=True)
    t0 = time.time()
    with mp.get_context("spawn").Pool(min(args.jobs, len(paths))) as pool:
        jobs = [(str(p), args.device, args.quick, False) for p in paths]
        if args.control:
            jobs.insert(0, (args.control, args.device, args.quick, True))
        results = []
        for rows in pool.imap_unordered(sweep_module, jobs):
            # printed as each module finishes, so a run cut short still reports
            print(f"done: {rows[0]['op'] if rows else '?'}: {len(rows)} configurations, "
                  f"{sum(r['mismatches'] for r in rows)} mismatches, {time.time() - t0:.0f} s", flush=True)
            results += rows
        results.sort(key=lambda r: (r["op"], r["shape"], r["N"], list(DT).index(r["dtype"])))
    total = sum(r["mismatches"] for r in results)
    checked = sum(r["checked"] for r in results)
    table = ["| op | shape | N | reduce length | dtype | runs | mismatches | examples |",
             "|---|---|---|---|---|---|---|---|"]
    table += [f"| {r['op']} | {r['shape']} | {r['N']} | {r['lengths']} | {r['dtype']} | {r['checked']} | "
              f"{r['mismatches']} | {', '.join(r['examples'])} |" for r in results]
    summary = (f"TOTAL: {checked} (op, shape, N, dtype, batch, path) runs compared bitwise with the batch of "
               f"{9 if args.quick else BIG}; {total} mismatches; {time.time() - t0:.0f} s")
    # The full table can be long: print the rows with mismatches (all of them with --verbose).
    print("\n" + "\n".join(table[:2] + [t for t, r in zip(table[2:], results, strict=True)
                                       if r["mismatches"] or args.verbose]))
    print(f"\n{summary}", flush=True)
    costs = cost(d) if args.cost else []
    if costs:
        print("\n| op | shape | fusion off (ms) | fusion on (ms) | off / on |\n|---|---|---|---|---|")
        for c in costs:
            print(f"| {c['op']} | {c['shape']} | {c['fusion_off_ms']} | {c['fusion_on_ms']} | {c['ratio']} |")
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "sweep.md").write_text("\n".join(table) + f"\n\n{summary}\n")
        (Path(args.out) / "sweep.json").write_text(json.dumps({"device": name,
                                                                "rows": results, "cost": costs}, indent=1))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
