"""Prototype (stop 50), for run 160: the chunk walks' loads of an UNROLL group at constant offsets from
one 64-bit base (v_addr: n64 = n0 as int64 + (u * W + the lanes as int64), 64-bit adds the compiler
folds into the loads' immediate offsets, where each tile's int32 position sign-extended to 64 bits
cost 4-6 instructions a tile), and (v_addr2) also the loads of the groups that end inside their chunk
masked by the rows alone (n < c1 holds at every lane there). The same positions, the same values
loaded: not order-shaping.

    python _scratch/addrpatch.py argmax argmin sum ...   # generated/cuda/OP.py -> _scratch/v_addr{,2}/cuda/
"""
import re
import sys
from pathlib import Path

N64 = re.compile(r"(?P<ind> +)n = n0 \+ u \* (?P<W>TILE|LANES) \+ (?P<L>t?lanes)\n(?P=ind)n64 = n\.to\(tl\.int64\)\n")
FULL = re.compile(r"(?P<ind> +)for n0 in range\(c0, gf, UNROLL \* (?P<W>TILE|LANES)\):\n(?P<body>(?:(?P=ind) .*\n)+)")


def base64(src):
    return N64.subn(lambda m: f"{m['ind']}n = n0 + u * {m['W']} + {m['L']}\n"
                              f"{m['ind']}n64 = tl.cast(n0, tl.int64) + (u * {m['W']} + {m['L']}.to(tl.int64))\n", src)


def full_masks(src):
    def one(m):
        body = m["body"]
        body = body.replace("mask=ok, other=0.0)", "mask=row_ok[:, None], other=0.0)") if "[None, :]" in body \
            else body.replace("mask=ok, other=0.0)", "mask=row_ok[None, :], other=0.0)")
        return f"{m['ind']}for n0 in range(c0, gf, UNROLL * {m['W']}):\n{body}"
    return FULL.subn(one, src)


for op in sys.argv[1:]:
    src = Path(f"generated/cuda/{op}.py").read_text()
    a, k = base64(src)
    b, j = full_masks(a)
    print(op, "n64", k, "full groups", j, file=sys.stderr)
    for d, text in (("v_addr", a), ("v_addr2", b)):
        Path(f"_scratch/{d}/cuda").mkdir(parents=True, exist_ok=True)
        Path(f"_scratch/{d}/cuda/{op}.py").write_text(text)
