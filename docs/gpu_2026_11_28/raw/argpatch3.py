"""Prototype (stop 50): the unmasked groups of the grouped argmax / argmin walk folded in the input's
dtype (bf16 max and compares exact: the same values and comparisons as their f32 widenings), the
group's extreme widened once per group (v_arg3); and the same with the first tile's number u selected
instead of its positions (v_arg4: one add per lane per group instead of one per element)."""
import re
import sys
from pathlib import Path

BLK = re.compile(r"(?P<ind> +)for n0 in range\(c0, gf, UNROLL \* (?P<T>TILE|LANES)\):\n(?P<body>(?:(?P=ind) .*\n)+)")


def raw(body):
    b = body.replace("                in_0_v = in_0_v.to(tl.float32)\n", "", 1)
    b = b.replace("            in_0_v = in_0_v.to(tl.float32)\n", "", 1)
    assert b != body
    b2 = re.sub(r"(r_0_acc, r_0_iacc = _arg(?:max|min)\(r_0_acc, r_0_iacc, )r_0_gm(, r_0_gi\))", r"\1r_0_gm.to(tl.float32)\2", b)
    assert b2 != b
    return b2


def useln(body, T):
    lanes = "tlanes" if T == "TILE" else "lanes"
    b = re.sub(r"r_0_gi = tl\.full\(\s*r_0_gm\.shape, \(9223372036854775807 if WIDE else 2147483647\), \(tl\.int64 if WIDE else tl\.int32\)\s*\)",
               "r_0_gu = tl.full(r_0_gm.shape, UNROLL - 1, tl.int32)", body)
    assert b != body
    b2 = re.sub(r"( +)for u in tl\.static_range\(UNROLL - 1, -1, -1\):\n +n = n0 \+ u \* \w+ \+ \w+\n( +)r_0_gi = tl\.where\((.*?), n\[None, :\], r_0_gi\)\n",
                lambda m: f"{m[1]}for u in tl.static_range(UNROLL - 2, -1, -1):\n{m[2]}r_0_gu = tl.where({m[3]}, u, r_0_gu)\n"
                          f"{m[1]}r_0_gi = n0 + r_0_gu * {T} + {lanes}[None, :]\n", b)
    assert b2 != b, b
    return b2


for op in ("argmax", "argmin"):
    src = Path(f"generated/cuda/{op}.py").read_text()
    for name, f in (("v_arg3", lambda m: raw(m["body"])), ("v_arg4", lambda m: useln(m["body"], m["T"]))):
        new, k = BLK.subn(lambda m: f"{m['ind']}for n0 in range(c0, gf, UNROLL * {m['T']}):\n{f(m)}", src)
        print(op, name, k, file=sys.stderr)
        Path(f"_scratch/{name}/cuda/{op}.py").write_text(new)
