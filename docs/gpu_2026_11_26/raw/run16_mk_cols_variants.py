"""Cols-kernel variants of sum and mean (text patches of generated/cuda; _scratch only)."""
import re
from pathlib import Path
out = Path("bench_variants"); out.mkdir(exist_ok=True)

def cols_funcs(src, fn):
    # apply fn to the bodies of the cols kernels only
    parts = re.split(r"(?=^@triton\.jit)", src, flags=re.M)
    res = []
    for p in parts:
        if re.search(r"^def _k_cols_", p, flags=re.M):
            p = fn(p)
        res.append(p)
    return "".join(res)

def late(p):
    q = re.sub(r"( +)in_0_v = in_0_v.to\(tl.float32\)\n(\1in_0_t = in_0_t \+ \(in_0_v,\))", r"\2", p)
    q = q.replace("in_0_v = in_0_t[u]\n", "in_0_v = in_0_t[u].to(tl.float32)\n")
    assert q != p
    return q

for op in ("sum", "mean"):
    src = Path(f"generated/cuda/{op}.py").read_text()
    pat = '"cols", 32, (M * (-(-K // 32))), 4'
    assert pat in src, op
    v = {}
    v["late"] = cols_funcs(src, late)
    v["w8"] = src.replace(pat, '"cols", 32, (M * (-(-K // 32))), 8')
    v["w2"] = src.replace(pat, '"cols", 32, (M * (-(-K // 32))), 2')
    v["b64w8"] = src.replace(pat, '"cols", 64, (M * (-(-K // 64))), 8')
    v["b16w2"] = src.replace(pat, '"cols", 16, (M * (-(-K // 16))), 2')
    v["notree"] = cols_funcs(src, lambda p: p.replace("_tree_sum(tl.trans(r_0_acc), BLOCK, LANES, LOG2_LANES, PAIRS)", "tl.sum(r_0_acc, 0)"))
    v["late_u2"] = v["late"].replace("COLS_UNROLL = 1 ", "COLS_UNROLL = 2 ")
    v["late_w8"] = v["late"].replace(pat, '"cols", 32, (M * (-(-K // 32))), 8')
    for name, text in v.items():
        assert text != src, name
        (out / f"{op}_c_{name}.py").write_text(text)
        print(op, name)
