# Run 158 (stop 50): builds argmax / argmin with the row kernel (the plan's row_tiles set for them) into _scratch/v_argrow.
import dataclasses
from pathlib import Path
import redgen.plan as P
orig = P.plan_cuda
def plan_cuda(op, t=None):
    p = orig(op) if t is None else orig(op, t)
    if op.name in ("argmax", "argmin"):
        p = dataclasses.replace(p, row_tiles=64, row_min=P.ROW_ONCE_MIN, row_stack=8, row_across=False)
    return p
P.plan_cuda = plan_cuda
from redgen.pipeline import build_spec
for op in ("argmax", "argmin"):
    b = build_spec(Path(f"specs/{op}.red"), "cuda", empirical=False)
    out = Path(f"_scratch/v_argrow/cuda/{op}.py"); out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(b.source)
    print(op, "row" if "def _k_rows_row" in b.source else "-", "across" if "def _k_rows_across" in b.source else "-")
