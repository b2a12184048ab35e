"""Run 237 variant maker: a chunk walk's tail tiles (after its groups of UNROLL, at most UNROLL - 1 of them)
loaded together, then combined one at a time in order with the same masked combine; a tile past c1 is wholly
masked, its combine a no-op (-inf at index IMAX). Only where a tail exists (`if g1 < c1`).
    python make.py SRC.py DST.py"""
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
out, i, count = [], 0, 0
head = re.compile(r"^(\s*)for n0 in range\(g1, c1, (LANES|TILE)\):$")
while i < len(lines):
    m = head.match(lines[i])
    if not m:
        out.append(lines[i]); i += 1; continue
    ind, w = m.group(1), m.group(2)
    lv = "lanes" if w == "LANES" else "tlanes"
    j = i + 1
    body = []
    while j < len(lines) and (lines[j].startswith(ind + "    ") or not lines[j].strip()):
        body.append(lines[j][len(ind) + 4:]); j += 1
    assert body[0] == f"n = n0 + {lv}", body[0]
    loads = [b for b in body[1:] if b.startswith(("n64 =", "ok =", "in_0_v ="))]
    rest = body[1 + len(loads):]
    assert all(b.startswith(("n64 =", "ok =", "in_0_v =")) for b in body[1:1 + len(loads)]), body
    s = ind + "    "
    out.append(f"{ind}if g1 < c1:")
    out.append(f"{s}in_0_t = ()")
    out.append(f"{s}for u in tl.static_range(UNROLL - 1):")
    out.append(f"{s}    n = g1 + u * {w} + {lv}")
    out += [f"{s}    {b}" for b in loads]
    out.append(f"{s}    in_0_t = in_0_t + (in_0_v,)")
    out.append(f"{s}for u in tl.static_range(UNROLL - 1):")
    out.append(f"{s}    n = g1 + u * {w} + {lv}")
    out += [f"{s}    {b}" for b in loads if b.startswith("ok =")]
    out.append(f"{s}    in_0_v = in_0_t[u]")
    out += [f"{s}    {b}" if b.strip() else b for b in rest]
    count += 1
    i = j
open(dst, "w").write("\n".join(out))
print("tails rewritten:", count)
