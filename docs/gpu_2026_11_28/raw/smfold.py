"""Run 161 patch: the rows walks of softmax_stats modules fold a lane's UNROLL group (group max, one
rescale of the state, one exp an element) instead of combining element by element. Text patch of
generated/cuda (argv[1]) into argv[2]."""
import re
import sys
from pathlib import Path

src, dst = Path(sys.argv[1]), Path(sys.argv[2])
dst.mkdir(parents=True, exist_ok=True)
UNM = re.compile(r"^(?P<s> *)(?P<a>\w+), (?P<b>\w+) = _softmax_stats\((?P=a), (?P=b), (?P<e>.+), 1\.0\)  # spec:\d+\n", re.M)
MSK = re.compile(r"^(?P<s> *)(?P<a>\w+), (?P<b>\w+) = _softmax_stats\(\n *(?P=a), (?P=b), tl\.where\(ok, (?P<e>.+), float\(\"-inf\"\)\), tl\.where\(ok, 1\.0, 0\.0\)\n *\)  # spec:\d+\n", re.M)
HEAD = "for u in tl.static_range(UNROLL):\n"


def fold(sp, a, b):
    s = sp
    return (f"{s}gm = gv[0]\n{s}for u in tl.static_range(1, UNROLL):\n"
            f"{s}    gm = tl.maximum(gm, gv[u], propagate_nan=tl.PropagateNan.ALL)\n"
            f"{s}mn = tl.maximum({a}, gm, propagate_nan=tl.PropagateNan.ALL)\n"
            f"{s}gs = tl.where({a} == float(\"-inf\"), 0.0, {b} * _rg_exp({a} - mn))\n"
            f"{s}for u in tl.static_range(UNROLL):\n{s}    gs = gs + _rg_exp(gv[u] - mn)\n"
            f"{s}{b} = tl.where(mn == float(\"-inf\"), 0.0, gs)\n{s}{a} = mn\n")


def patch(text):
    out, count = [], 0
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.strip() == HEAD.strip() and i + 3 < len(lines) and "row_ok[:, None] & (n < c1)" in lines[i + 3]:
            # find the combine statement ending the loop body
            j = i + 1
            while j < len(lines) and "_softmax_stats(" not in lines[j] and lines[j].startswith(ln[: len(ln) - len(ln.lstrip())] + "    "):
                j += 1
            if j < len(lines) and "_softmax_stats(" in lines[j]:
                k = j + 1 if lines[j].rstrip().endswith("# spec:" + lines[j].rsplit("# spec:", 1)[-1].strip()) and "1.0)" in lines[j] else j + 3
                stmt = "".join(lines[j:k])
                m = UNM.match(stmt) or MSK.match(stmt)
                if m:
                    sp = ln[: len(ln) - len(ln.lstrip())]
                    e = m.group("e")
                    val = e if UNM.match(stmt) else f"tl.where(ok, {e}, float(\"-inf\"))"
                    out.append(f"{sp}gv = ()\n")
                    out.extend(lines[i:j])
                    out.append(f"{m.group('s')}gv = gv + ({val},)\n")
                    out.append(fold(sp, m.group("a"), m.group("b")))
                    i = k
                    count += 1
                    continue
        out.append(ln)
        i += 1
    return "".join(out), count


for f in sorted(src.glob("*.py")):
    t = f.read_text()
    if "_softmax_stats(" in t:
        t, c = patch(t)
        print(f.name, c, "walk loops folded")
    (dst / f.name).write_text(t)
