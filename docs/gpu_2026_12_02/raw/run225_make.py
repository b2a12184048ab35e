"""Run 225 variants: the row kernel's non-packed tile loads of a row input (and its pre-loaded weight tiles)
in groups of WG whole tiles, one [BLOCK, WG * TILE] load each (16 bytes a thread of bf16 at 4 warps), split
into its tiles in registers (reshape, permute, tl.split): the same tiles, values and combines.
    python make.py OUTDIR op..."""
import re, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
HELP = '''

@triton.jit
def _wsplit2(g, B: tl.constexpr, L: tl.constexpr):
    # [B, 2 * L] -> its two [B, L] tiles (run 225)
    x = tl.permute(tl.reshape(g, [B, 2, L]), (0, 2, 1))
    return tl.split(x)


@triton.jit
def _wsplit4(g, B: tl.constexpr, L: tl.constexpr):
    x = tl.permute(tl.reshape(g, [B, 4, L]), (0, 2, 1))
    x = tl.reshape(x, [B, L, 2, 2])
    e, o = tl.split(x)
    t0, t2 = tl.split(e)
    t1, t3 = tl.split(o)
    return t0, t1, t2, t3


@triton.jit
def _wgroup(ptr, row, s_n, row_ok, base, c1, WG: tl.constexpr, B: tl.constexpr, L: tl.constexpr, WIDE: tl.constexpr):
    n = base + _idx(tl.arange(0, WG * L), WIDE)
    g = tl.load(ptr + (row[:, None] + n.to(tl.int64)[None, :] * s_n), mask=row_ok[:, None] & (n < c1)[None, :], other=0.0)
    if WG == 2:
        return _wsplit2(g, B, L)
    else:
        return _wsplit4(g, B, L)


@triton.jit
def _wgroup_a(ptr, row, s_n, row_ok, clen, base, WG: tl.constexpr, B: tl.constexpr, L: tl.constexpr, WIDE: tl.constexpr):
    n = base + _idx(tl.arange(0, WG * L), WIDE)
    g = tl.load(ptr + (row[:, None] + n.to(tl.int64)[None, :] * s_n), mask=row_ok[:, None] & (n[None, :] < clen[:, None]), other=0.0)
    if WG == 2:
        return _wsplit2(g, B, L)
    else:
        return _wsplit4(g, B, L)

'''
for op in sys.argv[2:]:
    src = (ROOT / "generated/cuda" / f"{op}.py").read_text()
    start = src.index("def _k_rows_row(")
    end = src.index("\n@triton.jit", start) if "\n@triton.jit" in src[start:] else src.index("\ndef ", start + 10)
    k = src[start:end]
    k = k.replace("    PACK: tl.constexpr,\n", "    PACK: tl.constexpr,\n    WG: tl.constexpr,\n", 1)
    # the held row inputs' loads (first loop)
    def rep_in(m):
        ind, i = m.group(1), m.group(2)
        return (f"{ind}if WG > 1 and u % WG == 0 and u + WG <= CT:\n"
                f"{ind}    grp_{i} = _wgroup(in_{i}_ptr, row_in_{i}, s_in_{i}_n, row_ok, c * _idx(CHUNK, WIDE) + u * TILE, c1, WG, BLOCK, TILE, WIDE)\n"
                f"{ind}if WG > 1 and u - u % WG + WG <= CT:\n"
                f"{ind}    in_{i}_v = grp_{i}[u % WG]\n"
                f"{ind}else:\n"
                f"{ind}    {m.group(0).strip()}\n")
    k, n1 = re.subn(r"^( +)in_(\d)_v = tl\.load\(in_\d_ptr \+ \(row_in_\d\[:, None\] \+ n64\[None, :\] \* s_in_\d_n\), mask=ok, other=0\.0\)\n(?=\s+if not RAW)", rep_in, k, flags=re.M)
    # the pre-loaded other inputs (PREG loop: g, c, u)
    pre = re.search(r"( +)for g in tl\.static_range\(PREG\):\n(.*?)(?=\n    r_|\n    \w+ = tl\.full)", k, re.S)
    n2 = 0
    if pre:
        body = pre.group(0)
        body2, n2 = re.subn(r"^( +)in_(\d)_v = tl\.load\(in_\d_ptr \+ \(row_in_\d\[:, None\] \+ n64\[None, :\] \* s_in_\d_n\), mask=ok, other=0\.0\)\n", rep_in, body, flags=re.M)
        body2 = body2.replace("u % WG", "(g % CT) % WG").replace("u + WG <= CT", "(g % CT) + WG <= CT").replace("u - (g % CT) % WG", "(g % CT) - (g % CT) % WG")
        k = k.replace(body, body2)
    print(op, "row loads grouped:", n1, "pre loads grouped:", n2)
    src = src[:start] + k + src[end:]
    # the across kernel
    start = src.index("def _k_rows_across(")
    end = src.index("\n@triton.jit", start)
    k = src[start:end]
    k = k.replace("    PACK: tl.constexpr,\n", "    PACK: tl.constexpr,\n    WG: tl.constexpr,\n", 1)
    def rep_a(m, var):
        ind, i = m.group(1), m.group(2)
        return (f"{ind}if WG > 1 and {var} % WG == 0 and {var} + WG <= CT:\n"
                f"{ind}    grp_{i} = _wgroup_a(in_{i}_ptr, row_in_{i}, s_in_{i}_n, row_ok, clen, {var} * LANES, WG, BLOCK * NP, LANES, WIDE)\n"
                f"{ind}if WG > 1 and {var} - {var} % WG + WG <= CT:\n"
                f"{ind}    in_{i}_v = grp_{i}[{var} % WG]\n"
                f"{ind}else:\n"
                f"{ind}    {m.group(0).strip()}\n")
    pat = r"^( +)in_(\d)_v = tl\.load\(in_\d_ptr \+ \(row_in_\d\[:, None\] \+ n64\[None, :\] \* s_in_\d_n\), mask=ok, other=0\.0\)\n"
    first = k.index("for u in tl.static_range(CT):")
    loop_end = k.index("_t = _t" if False else "in_1_p = ()") if "in_1_p = ()" in k else k.index("= tl.full([BLOCK", first)
    head, loop, tail = k[:first], k[first:loop_end], k[loop_end:]
    loop, a1 = re.subn(pat + r"(?=\s+if not RAW)", lambda m: rep_a(m, "u"), loop, flags=re.M)
    pre = re.search(r"( +)for g in tl\.static_range\(PREG\):\n(.*?)(?=\n    r_|\n    \w+ = tl\.full)", tail, re.S)
    a2 = 0
    if pre:
        body = pre.group(0)
        body2, a2 = re.subn(pat, lambda m: rep_a(m, "g"), body, flags=re.M)
        tail = tail.replace(body, body2)
    k = head + loop + tail
    print(op, "across loads grouped:", a1, a2)
    src = src[:start] + k + src[end:]
    src = re.sub(r"\n(@triton\.jit[^\n]*\ndef _k_rows_row\()", lambda m: HELP + "\n" + m.group(1), src, count=1)
    # the launcher: WG from a module knob
    src, n3 = re.subn(r'(consts\["NP"\] = [^\n]*\n)', r'\1        consts["WG"] = ROW_WG if not consts["PACK"] else 1\n', src, count=1)
    src = src.replace("\nLANES = ", "\nROW_WG = 1\nLANES = ", 1)
    print(op, "launcher:", n3)
    (out / f"{op}.py").write_text(src)
