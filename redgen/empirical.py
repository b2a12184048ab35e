"""The empirical half of verification: run the emitted kernels and compare bits.

The emitted module is imported in a subprocess with TRITON_INTERPRET=1 (the
interpreter is chosen when triton.jit runs, so it must be set before the
import). There the kernel runs at several batch sizes on random data, both
kernel shapes (K == 1 and K > 1) and both paths (split at small batch, fused
at large, and each forced at every batch size through the module's
SPLIT_BELOW; for ascend, grids of 1, 8, 40 and 48 persistent programs through
the module's CORES), and every shared row must be bitwise equal; so must the same row
at batch position 0 and k, and two runs on the same input.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .errors import EmpiricalMismatch
from .plan import Plan

BATCH_SIZES = (1, 2, 3, 13, 40)  # 13: a prime; 40: the larger batch the others are compared with
# ascend: core budgets forced through the module's CORES; 40 and 48 make programs loop
# (persistent) over the 60 row blocks of the largest batch, 1 runs every row in one program.
ASCEND_GRIDS = (1, 8, 40, 48)
POSITIONS = (0, 5)
SEED = 0


def case(plan: Plan) -> dict:
    """What the worker runs: shapes from the plan, so both paths are exercised."""
    op = plan.op
    chunk = plan.order.chunk
    # Two chunks and a ragged tail: both the chunk combine and the masks are exercised.
    n = chunk.eval({}) + 37 if chunk.is_const() else 2100
    out = {
        "op": op.name,
        "inputs": [{"name": i.name, "axes": list(i.axes), "dtypes": list(i.dtypes)} for i in op.inputs],
        "before": op.before, "after": op.after, "reduce": op.reduce_axis,
        "N": n, "K": [1, 3] if op.after else [1],
        "batch_sizes": list(BATCH_SIZES) if op.before else [1],
        "positions": list(POSITIONS), "seed": SEED,
    }
    if plan.target == "ascend":
        out["grids"] = list(ASCEND_GRIDS)
    return out


def run_empirical(plan: Plan, source: str) -> dict:
    """Run the worker on `source`; the certificate's 'empirical' record, or EmpiricalMismatch."""
    if getattr(plan, "attention", False):  # --- attention (redgen/attention_empirical.py) ---
        from .attention_empirical import run_attention_empirical

        return run_attention_empirical(plan, source)
    spec = case(plan)
    with tempfile.TemporaryDirectory() as d:
        mod = Path(d) / f"_redgen_check_{plan.op.name}.py"
        mod.write_text(source)
        env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": os.pathsep.join([d, *sys.path])}
        proc = subprocess.run(
            [sys.executable, "-m", "redgen._empirical_worker", mod.stem, json.dumps(spec)],
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
