"""A packed-RAW variant of a generated module: 16-bit long rows loaded as int32 pairs, held so
(one 32-bit register per two values), unpacked at each use (tl.join + reshape, bitcast to the
input dtype, widened: the same float32 values)."""
import re, sys
src, dst = sys.argv[1], sys.argv[2]
s = open(src).read()
old_load = re.compile(r"( +)(\w+)_v = tl\.load\((\w+)_ptr \+ \(row_(\w+)\[:, None\] \+ n64\[None, :\] \* s_\w+_n\), mask=ok, other=0\.0\)\n\1if not RAW:\n\1    \2_v = \2_v\.to\(tl\.float32\)\n")
def rep(m):
    sp, v, p, r = m.group(1), m.group(2), m.group(3), m.group(4)
    return (f"{sp}if RAW:\n"
            f"{sp}    pp = (c * _idx(CHUNK, WIDE) + u * LANES) // 2 + tl.arange(0, LANES // 2)\n"
            f"{sp}    okp = row_ok[:, None] & (2 * pp < c1)[None, :]\n"
            f"{sp}    {v}_v = tl.load({p}_ptr.to(tl.pointer_type(tl.int32)) + ((row_{r} // 2)[:, None] + pp[None, :]), mask=okp, other=0)\n"
            f"{sp}else:\n"
            f"{sp}    {v}_v = tl.load({p}_ptr + (row_{r}[:, None] + n64[None, :] * s_{r}_n), mask=ok, other=0.0).to(tl.float32)\n")
s, k = old_load.subn(rep, s)
print("loads", k)
s, k2 = re.subn(r"(\w+)_t\[([^\]]+)\]\.to\(tl\.float32\)", r"_unpk(\1_t[\2], RAW, BLOCK, LANES, \1_ptr)", s)
print("uses", k2)
helper = '''

@triton.jit
def _unpk(t, RAW: tl.constexpr, BLOCK: tl.constexpr, LANES: tl.constexpr, ptr):
    if RAW:
        lo = t.to(tl.int16)
        hi = (t >> 16).to(tl.int16)
        return tl.reshape(tl.join(lo, hi), [BLOCK, LANES]).to(ptr.dtype.element_ty, bitcast=True).to(tl.float32)
    else:
        return t

'''
i = s.index("@triton.jit")
s = s[:i] + helper.lstrip("\n") + "\n\n" + s[i:]
open(dst, "w").write(s)
