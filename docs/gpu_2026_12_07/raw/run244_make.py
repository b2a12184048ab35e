"""Run 244 variants: argmax/argmin's group walks on the loaded 16-bit values (the group's max or min,
its compare and NaN test on bf16/f16 pairs; the lane state still float32)."""
import re, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
for op in ("argmax", "argmin"):
    src = (ROOT / "generated" / "cuda" / f"{op}.py").read_text()
    (HERE / f"{op}_head.py").write_text(src)
    lines = src.split("\n")
    out, dropped, fn = [], 0, ""
    for i, ln in enumerate(lines):
        if ln.startswith("def "):
            fn = ln
        if (fn.startswith(("def _k_rows_partial0(", "def _k_rows_fused(")) and ln.strip() == "in_0_v = in_0_v.to(tl.float32)"
                and "in_0_t = in_0_t + (in_0_v,)" in lines[i + 1]):
            dropped += 1
            continue
        out.append(ln)
    s = "\n".join(out)
    walk = f"_{op}_walk(r_0_acc, r_0_iacc, r_0_gm, r_0_gi)"
    n = s.count(walk)
    s = s.replace(walk, f"_{op}_walk(r_0_acc, r_0_iacc, r_0_gm.to(tl.float32), r_0_gi)")
    print(op, "loads kept narrow:", dropped, "walk folds widened:", n)
    assert dropped == 4 and n == 4
    (HERE / f"{op}_pk.py").write_text(s)
