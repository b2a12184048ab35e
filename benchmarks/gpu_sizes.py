"""Sizes beyond int32 on a GPU (issue 13, "Sizes"): the generated cuda kernels compute them.

    PYTHONPATH=. python benchmarks/gpu_sizes.py [--out DIR]

Imports the committed generated/cuda modules (sum, mean, amax, argmax, softmax; build them
first) and checks, on one GPU of 80 GB or more:

- a (1, 2**31 + 5) bf16 row: sum, mean (f32 outputs) and amax against a float64 reference,
  argmax exactly at a planted position beyond 2**31 (the first of two ties); the same row
  inside a (2, 2**31 + 5) batch gives the same bits (sum, mean, amax, argmax);
- x.sum() (and mean, amax, argmax) of a (2**31 + 5,) f32 tensor, and x.sum() of 2**28 + 1000
  elements (more chunks than grid axis 1 holds) bitwise equal on the split and fused paths;
- 2**31 + 5 rows (the [rows, lanes] kernel, a grid cut in slices) and 2**31 + 5 columns
  (the [lanes, cols] kernel): sum and amax of two elements, exact against torch;
- the int64 index arithmetic forced on ordinary shapes (both kernel shapes, both paths):
  bitwise the int32 kernels' outputs; and its cost, timed.

Prints one line per check and exits 1 if any failed. Needs torch and triton, not redgen
(redgen.tolerances, for the per-dtype tolerances, imports torch only). `--small` runs the
same checks at sizes below 2**14 under TRITON_INTERPRET=1 on the CPU: a rehearsal of this
script, not a proof (the int32 paths run there).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

if "--small" in sys.argv:
    os.environ["TRITON_INTERPRET"] = "1"

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from redgen.tolerances import assert_accurate  # noqa: E402

BIG = 2**31 + 5  # --small: 3 * 4096 + 5
MID = 2**28 + 1000  # more chunks of 4096 than grid axis 1 held (65535); --small: 3 * 4096 + 1000
DEV = "cuda"
OPS = ("sum", "mean", "amax", "argmax", "softmax")
FAILED: list[str] = []
LINES: list[str] = []


def load(op: str):
    spec = importlib.util.spec_from_file_location(f"_sizes_{op}", ROOT / "generated" / "cuda" / f"{op}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def say(line: str) -> None:
    LINES.append(line)
    print(line, flush=True)


def check(name: str, ok: bool, detail: str = "") -> None:
    say(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}")
    if not ok:
        FAILED.append(name)


def accurate(name: str, got: torch.Tensor, ref: torch.Tensor, in_dtype: torch.dtype) -> None:
    try:
        assert_accurate(got.cpu(), ref.cpu(), in_dtype)
        check(name, True, f"{got.item():.6g} vs float64 {ref.item():.6g}")
    except AssertionError as e:
        check(name, False, str(e).splitlines()[0])


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def timed(fn):
    sync()
    t = time.perf_counter()
    out = fn()
    sync()
    return out, time.perf_counter() - t


def f64_stats(x: torch.Tensor, step: int = 2**27):
    """(sum, max) of a 1-d tensor in float64, a slice at a time (no 17 GB float64 copy)."""
    s, m = torch.zeros((), dtype=torch.float64, device=x.device), None
    for i in range(0, x.numel(), step):
        part = x[i:i + step].double()
        s += part.sum()
        pm = part.max()
        m = pm if m is None else torch.maximum(m, pm)
    return s, m


def long_row(mods) -> None:
    """(1, BIG) bf16, alone and as row 0 of a (2, BIG) batch."""
    gen = torch.Generator(device=DEV).manual_seed(0)
    x2 = torch.randn(2, BIG, dtype=torch.bfloat16, device=DEV, generator=gen)
    plant = BIG - 2  # 2**31 + 3
    x2[0, plant] = 30.0
    x2[0, plant + 1] = 30.0  # a tie: the first index wins
    x1 = x2[0:1]
    s64, m64 = f64_stats(x1[0])
    say(f"(1, {BIG}) bf16: schedule {mods['sum']._schedule(1, BIG, 1, 2)}")
    got, dt = timed(lambda: mods["sum"].sum(x1, 1, dtype=torch.float32))
    accurate(f"sum (1, {BIG}) bf16 -> f32 [{dt:.2f} s]", got[0], s64, torch.bfloat16)
    got, dt = timed(lambda: mods["mean"].mean(x1, 1, dtype=torch.float32))
    accurate(f"mean (1, {BIG}) bf16 -> f32 [{dt:.2f} s]", got[0], s64 / BIG, torch.bfloat16)
    got, dt = timed(lambda: mods["amax"].amax(x1, 1))
    accurate(f"amax (1, {BIG}) bf16 [{dt:.2f} s]", got[0], m64, torch.bfloat16)
    got, dt = timed(lambda: mods["argmax"].argmax(x1, 1))
    check(f"argmax (1, {BIG}) bf16 [{dt:.2f} s]", got.item() == plant, f"{got.item()} (planted {plant})")
    for op, kw in (("sum", {}), ("mean", {}), ("amax", {}), ("argmax", {}), ("sum", {"dtype": torch.float32})):
        fn = getattr(mods[op], op)
        alone, batch = fn(x1, 1, **kw), fn(x2, 1, **kw)
        check(f"{op}{'(f32)' if kw else ''} row 0 alone == row 0 in a batch of 2 (bitwise)",
              torch.equal(alone[0], batch[0]), f"{alone[0].item()} / {batch[0].item()}")
    # 2**31 + 5 columns of 2: the [lanes, cols] kernel, K beyond int32
    say(f"(2, {BIG}) dim 0: schedule {mods['sum']._schedule(1, 2, BIG, 2)}")
    # (f32 outputs: the sum of two bf16 values is exact in f32, whatever the rounding to bf16)
    got, dt = timed(lambda: mods["sum"].sum(x2, 0, dtype=torch.float32))
    check(f"sum (2, {BIG}) dim 0 ({BIG} columns) exact vs torch [{dt:.2f} s]",
          torch.equal(got, x2[0].float() + x2[1].float()))
    got, dt = timed(lambda: mods["amax"].amax(x2, 0))
    check(f"amax (2, {BIG}) dim 0 exact vs torch [{dt:.2f} s]", torch.equal(got, torch.maximum(x2[0], x2[1])))
    # 2**31 + 5 rows of 2: the [rows, lanes] kernel, more programs than grid axis 0 holds
    rows = x2.view(BIG, 2)
    say(f"({BIG}, 2) dim 1: schedule {mods['sum']._schedule(BIG, 2, 1, 2)}")
    got, dt = timed(lambda: mods["sum"].sum(rows, 1, dtype=torch.float32))
    check(f"sum ({BIG}, 2) dim 1 exact vs torch [{dt:.2f} s]", torch.equal(got, rows[:, 0].float() + rows[:, 1].float()))
    got, dt = timed(lambda: mods["amax"].amax(rows, 1))
    check(f"amax ({BIG}, 2) dim 1 exact vs torch [{dt:.2f} s]", torch.equal(got, torch.maximum(rows[:, 0], rows[:, 1])))


def long_flat(mods) -> None:
    """(BIG,) f32: x.sum() and friends; MID elements on the split and the fused path."""
    gen = torch.Generator(device=DEV).manual_seed(1)
    x = torch.randn(BIG, dtype=torch.float32, device=DEV, generator=gen)
    plant = BIG - 4  # 2**31 + 1
    x[plant] = 40.0
    s64, m64 = f64_stats(x)
    got, dt = timed(lambda: mods["sum"].sum(x))
    accurate(f"x.sum() of ({BIG},) f32 [{dt:.2f} s]", got, s64, torch.float32)
    got, dt = timed(lambda: mods["mean"].mean(x))
    accurate(f"x.mean() of ({BIG},) f32 [{dt:.2f} s]", got, s64 / BIG, torch.float32)
    accurate(f"x.amax() of ({BIG},) f32", mods["amax"].amax(x), m64, torch.float32)
    got = mods["argmax"].argmax(x)
    check(f"x.argmax() of ({BIG},) f32", got.item() == plant, f"{got.item()} (planted {plant})")
    y = x[:MID]
    s64, _ = f64_stats(y)
    mod = mods["sum"]
    say(f"({MID},): schedule {mod._schedule(1, MID, 1, 4)}")
    split, dt = timed(lambda: mod.sum(y))
    accurate(f"x.sum() of {MID} f32, {-(-MID // 4096)} chunks, split [{dt:.2f} s]", split,
             s64, torch.float32)
    saved, mod.SPLIT_BELOW = mod.SPLIT_BELOW, 0
    try:
        fused, dt = timed(lambda: mod.sum(y))
    finally:
        mod.SPLIT_BELOW = saved
    check(f"x.sum() of {MID}: split == fused (bitwise) [fused {dt:.2f} s]", torch.equal(split, fused),
          f"{split.item()} / {fused.item()}")


def forced_wide(mods) -> None:
    """WIDE forced on ordinary shapes: bitwise the int32 kernels (compiled, not interpreted)."""
    gen = torch.Generator(device=DEV).manual_seed(2)
    n = 70000 if DEV == "cuda" else 9000
    x = torch.randn(5, n, 3, dtype=torch.bfloat16, device=DEV, generator=gen)
    x[2, n - 1000] = 20.0
    for op in ("sum", "argmax", "softmax"):
        mod = mods[op]
        fn = getattr(mod, op)
        for path, below in (("split", 1 << 62), ("fused", 0)):
            saved, mod.SPLIT_BELOW = mod.SPLIT_BELOW, below
            real = mod._needs_int64
            try:
                narrow = [fn(x[:, :, 0], 1), fn(x, 1)]
                mod._needs_int64 = lambda *sizes: True
                wide = [fn(x[:, :, 0], 1), fn(x, 1)]
            finally:
                mod.SPLIT_BELOW, mod._needs_int64 = saved, real
            same = all(torch.equal(a, b) for a, b in zip(narrow, wide, strict=True))
            check(f"{op} {path}: int64 indices == int32 indices (rows and cols kernels, bitwise)", same)


def cost(mods) -> None:
    """What int64 index arithmetic costs where it is not needed (why the launcher chooses)."""
    from triton.testing import do_bench

    x = torch.randn(4096, 16384, dtype=torch.bfloat16, device=DEV)
    for op in ("sum", "argmax"):
        mod = mods[op]
        fn = getattr(mod, op)
        real = mod._needs_int64
        ms_narrow = do_bench(lambda fn=fn: fn(x, 1))
        mod._needs_int64 = lambda *sizes: True
        try:
            ms_wide = do_bench(lambda fn=fn: fn(x, 1))
        finally:
            mod._needs_int64 = real
        say(f"time {op} (4096, 16384) bf16 dim 1: int32 {ms_narrow * 1e3:.1f} us, int64 {ms_wide * 1e3:.1f} us")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="also write the lines to DIR/gpu_sizes.txt")
    ap.add_argument("--small", action="store_true", help="a rehearsal on the CPU (interpreter), small sizes")
    args = ap.parse_args()
    import triton

    global BIG, MID, DEV
    parts = [long_row, long_flat, forced_wide, cost]
    if args.small:
        BIG, MID, DEV, parts = 3 * 4096 + 5, 3 * 4096 + 1000, "cpu", parts[:3]
        say(f"rehearsal on the CPU (interpreter); torch {torch.__version__}, triton {triton.__version__}")
    else:
        props = torch.cuda.get_device_properties(0)
        say(f"device: {torch.cuda.get_device_name()}, {props.total_memory / 2**30:.0f} GiB; "
            f"torch {torch.__version__}, triton {triton.__version__}")
    mods = {op: load(op) for op in OPS}
    t0 = time.perf_counter()
    for part in parts:
        try:
            part(mods)
        except Exception as e:  # report and go on: one run must tell as much as it can
            check(part.__name__, False, f"{type(e).__name__}: {str(e)[:500]}")
        torch.cuda.empty_cache()
        say(f"[{part.__name__} done at {time.perf_counter() - t0:.0f} s]")
    say(f"{len(FAILED)} failed" + (": " + ", ".join(FAILED) if FAILED else ""))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "gpu_sizes.txt").write_text("\n".join(LINES) + "\n")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
