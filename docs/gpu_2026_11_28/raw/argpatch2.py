"""Prototype (stop 50): the grouped argmax / argmin walk with the groups that end inside the chunk
unmasked (no select of the identity), from the new generated modules."""
import re
import sys
from pathlib import Path

BLOCK = re.compile(r"(?P<ind> +)for n0 in range\(c0, g1, UNROLL \* (?P<T>TILE|LANES)\):\n(?P<body>(?:(?P=ind) .*\n)+)")

def repl(m):
    ind, T, body = m["ind"], m["T"], m["body"]
    full = re.sub(r"\(tl\.where\(ok, in_0_v, float\(\"[-+]?inf\"\)\),\)", "(in_0_v,)", body)
    if full == body:
        return m[0]
    return (f"{ind}gf = c0 + (c1 - c0) // (UNROLL * {T}) * (UNROLL * {T})\n"
            f"{ind}for n0 in range(c0, gf, UNROLL * {T}):\n{full}"
            f"{ind}for n0 in range(gf, g1, UNROLL * {T}):\n{body}")

for op in ("argmax", "argmin"):
    src = Path(f"generated/cuda/{op}.py").read_text()
    new, k = BLOCK.subn(repl, src)
    print(op, "patched", k, file=sys.stderr)
    Path(f"_scratch/v_arg2/cuda/{op}.py").write_text(new)
