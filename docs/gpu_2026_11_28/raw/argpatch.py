"""Prototype (stop 50): argmax / argmin's walk combines an UNROLL group of tiles lane-wise as
max-then-first-match (the group's max per lane, then the first tile holding it, NaN first), and
only then the group's (value, index) pair into the lane's accumulator. The same result: the pair
order is total, any grouping gives the first index of the maximum."""
import re
import sys
from pathlib import Path

PAT = re.compile(
    r"(?P<ind> +)for u in tl\.static_range\(UNROLL\):\n"
    r"(?P=ind)    n = n0 \+ u \* (?P<T>TILE|LANES) \+ (?P<L>t?lanes)\n"
    r"(?P=ind)    n64 = n\.to\(tl\.int64\)\n"
    r"(?P=ind)    ok = row_ok\[:, None\] & \(n < c1\)\[None, :\]\n"
    r"(?P=ind)    in_0_v = in_0_t\[u\]\n"
    r"(?P=ind)    r_0_acc, r_0_iacc = _(?P<op>argmax|argmin)\(\n"
    r"(?P=ind)        r_0_acc,\n"
    r"(?P=ind)        r_0_iacc,\n"
    r"(?P=ind)        tl\.where\(ok, in_0_v, float\(\"(?P<id>[-+]?inf)\"\)\),\n"
    r"(?P=ind)        tl\.where\(ok, n\[None, :\], (?P<imax>\(9223372036854775807 if WIDE else 2147483647\))\),\n"
    r"(?P=ind)    \)  # spec:9\n")


def repl(m):
    i, T, L, op, ident, imax = m["ind"], m["T"], m["L"], m["op"], m["id"], m["imax"]
    ext = "maximum" if op == "argmax" else "minimum"
    s = [f"{i}gv = ()",
         f"{i}for u in tl.static_range(UNROLL):",
         f"{i}    n = n0 + u * {T} + {L}",
         f"{i}    ok = row_ok[:, None] & (n < c1)[None, :]",
         f"{i}    gv = gv + (tl.where(ok, in_0_t[u], float(\"{ident}\")),)",
         f"{i}gm = gv[0]",
         f"{i}for u in tl.static_range(1, UNROLL):",
         f"{i}    gm = tl.{ext}(gm, gv[u], propagate_nan=tl.PropagateNan.ALL)",
         f"{i}gi = tl.full(gm.shape, {imax}, r_0_iacc.dtype)",
         f"{i}for w in tl.static_range(UNROLL - 1, -1, -1):",
         f"{i}    n = n0 + w * {T} + {L}",
         f"{i}    gi = tl.where((gv[w] == gm) | (gv[w] != gv[w]), n[None, :], gi)",
         f"{i}r_0_acc, r_0_iacc = _{op}(r_0_acc, r_0_iacc, gm, gi)",
         ""]
    return "\n".join(s)


for op in ("argmax", "argmin"):
    src = Path(f"generated/cuda/{op}.py").read_text()
    new, k = PAT.subn(repl, src)
    print(op, "patched", k, file=sys.stderr)
    Path(f"_scratch/v_arg/cuda/{op}.py").write_text(new)
