"""The empirical half of verifying a contraction: run the emitted kernel, compare bits.

As redgen.verify.empirical does for reductions: the emitted module is imported in a subprocess
with TRITON_INTERPRET=1 and run on random data at several M (1, 2, 3, 13, 40; a prime),
and for bmm at several batch counts; the first rows of a larger call must equal a smaller
call's bit for bit, a row moved to another position must keep its bits, and two runs on
the same input must agree. Every regime of the module (cuda: FORCE_REGIME = each index,
so every tile shape is tried at every M) and, for ascend, core budgets of 1, 8, 20 and 24
persistent programs are compared with the natural choice. K = two chunks (or two K tiles)
and a ragged tail, so the K loop, its mask and the chunk combine are all exercised.

    python -m redgen.verify.contraction_empirical MODULE CASE_JSON     (the subprocess side)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from redgen import targets
from redgen.contraction import ContractionPlan
from redgen.errors import EmpiricalMismatch

M_SIZES = (1, 2, 3, 13, 40)
BATCHES = (1, 3)
POSITIONS = (0, 5)
SEED = 0


def case(plan: ContractionPlan) -> dict:
    op = plan.op
    o = plan.order
    block_k = o.lanes.eval({})
    k = (o.chunk.eval({}) if o.split_kind == "fixed_size" else 2 * block_k) + 37
    role = {op.k: "K", op.m: "M", op.n: "N"}
    if op.batch:
        role[op.batch] = "B"
    regimes = max(len(rs) for _, rs in plan.regimes)
    t = targets.get(plan.target)
    # A persistent target: grids of 1, 8 (programs loop), its cube cores and the most of any part;
    # otherwise every regime (BLOCK_M x BLOCK_N by M) forced at every M.
    grids = [1, 8, t.cube_cores, t.max_cube_cores] if t.persistent else []
    return {
        "op": op.name, "inputs": [[role[a] for a in i.axes] for i in op.inputs], "dtypes": list(op.dtypes),
        "K": k, "N": 37, "M": list(M_SIZES), "B": list(BATCHES) if op.batch else [1], "batch": bool(op.batch),
        "positions": list(POSITIONS), "seed": SEED, "params": len(op.params),
        "knob": "CORES" if t.persistent else "FORCE_REGIME",
        "values": grids if t.persistent else list(range(regimes)),
    }


def run_contraction_empirical(plan: ContractionPlan, source: str) -> dict:
    """Run the worker on `source`; the certificate's 'empirical' record, or EmpiricalMismatch."""
    spec = case(plan)
    with tempfile.TemporaryDirectory() as d:
        mod = Path(d) / f"_redgen_check_{plan.op.name}.py"
        mod.write_text(source)
        env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": os.pathsep.join([d, *sys.path])}
        proc = subprocess.run([sys.executable, "-m", "redgen.verify.contraction_empirical", mod.stem, json.dumps(spec)],
                              env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
        raise EmpiricalMismatch(f"{plan.op.name}: the empirical check failed:\n" + "\n".join(tail), None, None)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["status"] != "passed":
        raise EmpiricalMismatch(f"{plan.op.name}: {result['detail']}", plan.order.where("chunk"), plan.op.source)
    return result


# --- the subprocess side ----------------------------------------------------------------


def _check(module, spec: dict) -> tuple[str | None, int]:
    import torch

    dts = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    fn = getattr(module, spec["op"])
    knob = spec["knob"]
    default = getattr(module, knob)
    calls = 0

    def run(xs, value=None):
        nonlocal calls
        setattr(module, knob, default if value is None else value)
        try:
            calls += 1
            return fn(*xs)
        finally:
            setattr(module, knob, default)

    big_m, big_b = max(spec["M"]), max(spec["B"])
    for name in spec["dtypes"]:
        gen = torch.Generator().manual_seed(spec["seed"])
        size = {"K": spec["K"], "N": spec["N"], "M": big_m, "B": big_b}
        xs = [torch.randn([size[r] for r in axes], generator=gen).to(dts[name]) for axes in spec["inputs"]]

        def rows(m, b, perm=None, xs=xs):
            out = []
            for t, axes in zip(xs, spec["inputs"], strict=True):
                if "M" in axes:
                    i = axes.index("M")
                    t = t.index_select(i, perm) if perm is not None else t.narrow(i, 0, m)
                if "B" in axes:
                    t = t.narrow(axes.index("B"), 0, b)
                out.append(t)
            return out

        ref = run(xs)
        if not torch.equal(ref, run(xs)):
            return f"run-to-run: two calls on the same input differ ({name})", calls
        mdim = 1 if spec["batch"] else 0
        for value in [None, *spec["values"]]:
            for b in spec["B"]:
                for m in spec["M"]:
                    got = run(rows(m, b), value)
                    want = ref.narrow(mdim, 0, m)
                    if spec["batch"]:
                        want = want.narrow(0, 0, b)
                    if not torch.equal(got, want):
                        return (f"{knob}={value}: M={m}, batch {b} differs from the first rows of M={big_m}, "
                                f"batch {big_b} ({name})"), calls
        for pos in spec["positions"]:
            perm = torch.arange(big_m)
            perm[0], perm[pos] = pos, 0
            got = run(rows(big_m, big_b, perm))
            if not torch.equal(got.select(mdim, pos), ref.select(mdim, 0)):
                return f"row 0 moved to position {pos} gives other bits ({name})", calls
    return None, calls


def main() -> None:
    import importlib

    from redgen.verify.interpreter_dot import DOT_MODEL, install

    install()  # before the module's kernels run: numpy's BLAS would order each tile's sums by its shape
    module, spec = importlib.import_module(sys.argv[1]), json.loads(sys.argv[2])
    failure, calls = _check(module, spec)
    if failure:
        print(json.dumps({"status": "failed", "detail": failure}))
        return
    print(json.dumps({
        "status": "passed", "where": f"triton interpreter (CPU), {DOT_MODEL}", "batch_sizes": spec["M"],
        "positions": spec["positions"], "paths": [spec["knob"], *map(str, spec["values"])], "K": spec["K"],
        "N": spec["N"], "batches": spec["B"], "dtypes": spec["dtypes"], "calls": calls, "seed": spec["seed"],
    }))


if __name__ == "__main__":
    main()
