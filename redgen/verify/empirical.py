"""The empirical half of verification: run the emitted kernels and compare bits.

The emitted module is imported in a subprocess with TRITON_INTERPRET=1 (the
interpreter is chosen when triton.jit runs, so it must be set before the
import). There the kernel runs on random data at several reduce lengths (below
the lane count, one chunk plus a ragged tail, several chunks, a prime), and

- every output is compared with the spec's meaning (redgen.reference, float64)
  at redgen.tolerances' per-dtype tolerances;
- the batch axes vary one at a time (the one before the reduce axis: 1, 2, 3, 7
  against 9; the one after it: 1, 3 against 5), on both kernel shapes (K == 1 and
  K > 1), the natural path and each forced one (Target.empirical_paths; cuda: fused
  and split through the module's SPLIT_BELOW, each again with int64 index arithmetic
  forced (WIDE, which the launcher takes at sizes near 2**31); ascend: grids of 1, 8, 40 and 48
  persistent programs through its CORES): every shared row must be bitwise equal;
- a row moved to another batch position, and two runs on the same input, give the
  same bits.

Shapes are kept small (the check of one spec runs in well under a minute).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from redgen import targets
from redgen.errors import EmpiricalMismatch
from redgen.plan import Plan

BATCH_SIZES = (1, 2, 3, 7, 9)  # the last: the full batch the others are compared with
AFTER_SIZES = (1, 3, 5)  # the batch axis after the reduce axis, likewise
POSITIONS = (0, 5)
INNER = 5  # the inner reduce axis' length for `reduce N1, N2 as N` (see case())
SEED = 0


def _prime_at_least(n: int) -> int:
    def prime(k: int) -> bool:
        return k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))

    while not prime(n):
        n += 1
    return n


def reduce_lengths(plan: Plan) -> dict[str, int]:
    """The reduce lengths the check runs: below the lane count, one chunk plus a ragged
    tail, several chunks (plus a tail), a prime between the lane count and a chunk; and where
    the fused walks take short rows in fewer lanes, two such rows."""
    lanes = plan.order.lanes.eval({}) if plan.order.lanes.is_const() else 512
    chunk = plan.order.chunk
    one = chunk.eval({}) if chunk.is_const() else 4 * lanes
    out = {
        "below_lanes": max(1, lanes - lanes // 4 - 1),
        "chunk_tail": one + 37,
        "chunks": 3 * one + 5 if one * 3 <= 16384 else 2 * one + 5,
        "prime": _prime_at_least(lanes + lanes // 3),
    }
    if plan.short_tile:
        # cuda's fused walks of short rows (plan.Plan.short_tile): a tile of a power of two between
        # the lanes' 16th and half, and one of the fewest lanes it takes, each partly masked.
        out["tile"] = lanes // 8 + 3
        out["tile_min"] = 5
    return out


def case(plan: Plan) -> dict:
    """What the worker runs: shapes from the plan, so both paths are exercised."""
    op = plan.op
    out = {
        "op": op.name, "source": op.source, "path": op.path,
        "inputs": [{"name": i.name, "axes": list(i.axes), "dtypes": list(i.dtypes)} for i in op.inputs],
        "before": op.before, "after": op.after, "reduce": op.reduce_axis,
        "N": reduce_lengths(plan),
        "batch_sizes": list(BATCH_SIZES) if op.before else [1],
        "after_sizes": list(AFTER_SIZES) if op.after else [1],
        "positions": list(POSITIONS), "seed": SEED,
    }
    t = targets.get(plan.target)
    # How the worker forces each path: the module-level knob and its values (Target).
    out["knob"], out["paths"] = t.empirical_knob, dict(t.empirical_paths)
    if t.empirical_off:
        # UNROLL (and COLS_UNROLL) shapes the order where a combiner's groups do (Plan.order_groups):
        # kept there.
        out["off"] = {k: v for k, v in t.empirical_off if not (k in ("UNROLL", "COLS_UNROLL") and plan.order_groups)}
    if t.empirical_forms:
        out["forms"] = {name: dict(knobs) for name, knobs in t.empirical_forms}
    if t.empirical_short_form and plan.short_tile:
        out["short_form"] = list(t.empirical_short_form)
    # The cols walks' forms, each named for the Plan flag under which the module has it.
    cols_forms = {name: dict(knobs) for name, knobs in t.empirical_cols_forms if getattr(plan, name)}
    if cols_forms:
        out["cols_forms"] = cols_forms
    if t.cores_env:
        out["cores_env"] = [t.cores_env, t.default_cores]
    if t.empirical_grids:
        out["grids"] = list(t.empirical_grids)
    if op.reduce_axes:
        # `reduce N1, N2 as N`: each merged length n runs as N1 x N2 = n // INNER x INNER (the
        # lengths rounded down to a multiple of INNER, a prime as prime x 1), so the walk of
        # the inner axis wraps inside lanes, chunks and tails alike.
        out["reduce_axes"] = list(op.reduce_axes)
        out["N"] = {k: (n // INNER) * INNER if n >= INNER and n % INNER and k != "prime" else n
                    for k, n in out["N"].items()}
        out["inner"] = {str(n): INNER if n % INNER == 0 else 1 for n in out["N"].values()}
    return out


def run_empirical(plan: Plan, source: str) -> dict:
    """Run the worker on `source`; the certificate's 'empirical' record, or EmpiricalMismatch."""
    if getattr(plan, "attention", False):  # --- attention (redgen/verify/attention_empirical.py) ---
        from redgen.verify.attention_empirical import run_attention_empirical

        return run_attention_empirical(plan, source)
    result = _run_worker(plan, source, {"TRITON_INTERPRET": "1"})
    t = targets.get(plan.target)
    if t.device_check and _device_present(t.device_type):
        # A GPU compiles the kernels for real (FMA contraction, instruction selection: what the
        # interpreter cannot show), so the same check runs there too and is recorded beside.
        gpu = _run_worker(plan, source, {"TRITON_INTERPRET": "0", "REDGEN_EMPIRICAL_DEVICE": t.device_type})
        result["gpu"] = {k: gpu[k] for k in ("status", "where", "calls", "reference") if k in gpu}
    return result


def _device_present(device_type: str) -> bool:
    """A device of `device_type` this process can use (REDGEN_NO_GPU=1 keeps the check on the
    interpreter)."""
    if os.environ.get("REDGEN_NO_GPU") == "1":
        return False
    import torch

    dev = getattr(torch, device_type, None)
    return dev is not None and dev.is_available()


def _run_worker(plan: Plan, source: str, extra_env: dict[str, str]) -> dict:
    spec = case(plan)
    with tempfile.TemporaryDirectory() as d:
        mod = Path(d) / f"_redgen_check_{plan.op.name}.py"
        mod.write_text(source)
        env = {**os.environ, **extra_env, "PYTHONPATH": os.pathsep.join([d, *sys.path])}
        if extra_env.get("TRITON_INTERPRET") == "0":
            env.pop("TRITON_INTERPRET")
        proc = subprocess.run(
            [sys.executable, "-m", "redgen.verify.worker", mod.stem, json.dumps(spec)],
            env=env, capture_output=True, text=True, timeout=1800,
        )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
        raise EmpiricalMismatch(f"{plan.op.name}: the empirical check failed:\n" + "\n".join(tail),
                                None, None)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["status"] != "passed":
        raise EmpiricalMismatch(f"{plan.op.name}: {result['detail']}", plan.order.where("chunk"), plan.op.source)
    return result
