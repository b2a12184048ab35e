"""Variants of softmax / log_softmax / layer_norm holding long rows (the row kernel up to 64 tiles).

w<W>: ROW_MAX_TILES = 64 and the row kernel's warps forced to W at rows over 8192.
bt<W>: the same, and (softmax family) the chunk partials' lane trees run once, batched over the
chunks ([BLOCK*8, LANES]), instead of once per chunk. Same pairs, same bits.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_scratch/long"

HELPERS = '''

@triton.jit
def _st8(t0, t1, t2, t3, t4, t5, t6, t7, B: tl.constexpr, L: tl.constexpr):
    # [B, L] x 8 -> [B * 8, L], row b * 8 + f holding chunk bitrev3(f) of row b
    a = tl.join(tl.join(tl.join(t0, t1), tl.join(t2, t3)), tl.join(tl.join(t4, t5), tl.join(t6, t7)))
    a = tl.reshape(a, [B, L, 8])
    a = tl.permute(a, (0, 2, 1))
    return tl.reshape(a, [B * 8, L])


@triton.jit
def _un8(x, B: tl.constexpr):
    x = tl.reshape(x, [B, 2, 2, 2])
    k0, k1 = tl.split(x)
    a, b = tl.split(k0)
    c0, c1 = tl.split(a)
    c2, c3 = tl.split(b)
    a, b = tl.split(k1)
    c4, c5 = tl.split(a)
    c6, c7 = tl.split(b)
    return c0, c1, c2, c3, c4, c5, c6, c7

'''


def patch(src: str, warps: int, batched: bool) -> str:
    src = re.sub(r"^ROW_MAX_TILES = \d+", "ROW_MAX_TILES = 64", src, flags=re.M)
    anchor = "            warps = max(warps, min(16, block * LANES // 32, block * tiles * LANES // (32 * ROW_THREAD_ELEMS)))\n"
    assert anchor in src
    src = src.replace(anchor, anchor + f"        if tiles * LANES > 8192:\n            warps = {warps}\n", 1)
    if batched:
        start = src.index("def _k_rows_row(")
        end = src.index("@triton.jit", start)
        body = src[start:end]
        old_init = ('    r_0_tot = tl.full([BLOCK], float("-inf"), tl.float32)\n'
                    '    r_0_stot = tl.full([BLOCK], 0.0, tl.float32)\n')
        assert old_init in body
        body = body.replace(old_init, "    acc_t = ()\n    sacc_t = ()\n", 1)
        old_tree = ("        r_0_part, r_0_spart = _tree_softmax_stats(r_0_acc, r_0_sacc, BLOCK, LANES, LOG2_LANES, PAIRS)\n"
                    "        r_0_tot, r_0_stot = _softmax_stats(r_0_tot, r_0_stot, r_0_part, r_0_spart)\n")
        assert old_tree in body
        new = ('        acc_t = acc_t + (r_0_acc,)\n        sacc_t = sacc_t + (r_0_sacc,)\n'
               '    for c in tl.static_range(NCH, 8):\n'
               '        acc_t = acc_t + (tl.full([BLOCK, LANES], float("-inf"), tl.float32),)\n'
               '        sacc_t = sacc_t + (tl.full([BLOCK, LANES], 0.0, tl.float32),)\n'
               '    va = _st8(acc_t[0], acc_t[1], acc_t[2], acc_t[3], acc_t[4], acc_t[5], acc_t[6], acc_t[7], BLOCK, LANES)\n'
               '    vs = _st8(sacc_t[0], sacc_t[1], sacc_t[2], sacc_t[3], sacc_t[4], sacc_t[5], sacc_t[6], sacc_t[7], BLOCK, LANES)\n'
               '    pm, ps = _tree_softmax_stats(va, vs, BLOCK * 8, LANES, LOG2_LANES, PAIRS)\n'
               '    pm = _un8(tl.reshape(pm, [BLOCK, 8]), BLOCK)\n'
               '    ps = _un8(tl.reshape(ps, [BLOCK, 8]), BLOCK)\n'
               '    r_0_tot = tl.full([BLOCK], float("-inf"), tl.float32)\n'
               '    r_0_stot = tl.full([BLOCK], 0.0, tl.float32)\n'
               '    for c in tl.static_range(NCH):\n'
               '        r_0_tot, r_0_stot = _softmax_stats(r_0_tot, r_0_stot, pm[c], ps[c])\n')
        body = body.replace(old_tree, new, 1)
        src = src[:start] + body + src[end:]
        src = src.replace("\n@triton.jit(do_not_specialize=[\"M\", \"R\", \"PID0\"])\ndef _k_rows_row(", HELPERS + "\n@triton.jit(do_not_specialize=[\"M\", \"R\", \"PID0\"])\ndef _k_rows_row(", 1)
    return src


for op in sys.argv[1:]:
    src = (ROOT / f"generated/cuda/{op}.py").read_text()
    for w in (8, 16):
        (OUT / f"{op}_w{w}.py").write_text(patch(src, w, False))
        if op != "layer_norm":
            (OUT / f"{op}_bt{w}.py").write_text(patch(src, w, True))
print(sorted(p.name for p in OUT.iterdir()))
