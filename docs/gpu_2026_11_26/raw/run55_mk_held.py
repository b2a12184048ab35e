"""softmax_held variants holding rows of up to 128 tiles (32768 at 256 lanes): h8 (warps 8 at rows over
8192), hb8 (the same, the chunk lane trees batched over the chunks: [BLOCK*8, LANES], one tree a stage)."""
import re
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_scratch/long"
HELPERS = (ROOT / "_scratch/mk_long.py").read_text().split("HELPERS = '''")[1].split("'''")[0]


def batch(body, r, tree, comb, ident):
    old_init = f'    {r}_tot = tl.full([BLOCK], {ident}, tl.float32)\n'
    assert old_init in body, old_init
    body = body.replace(old_init, f"    {r}_t = ()\n", 1)
    old = (f"        {r}_part = {tree}({r}_acc, BLOCK, LANES, LOG2_LANES, PAIRS)\n"
           f"        {r}_tot = {comb}({r}_tot, {r}_part)\n")
    assert old in body, old
    new = (f"        {r}_t = {r}_t + ({r}_acc,)\n"
           f"    for c in tl.static_range(NCH, 8):\n"
           f"        {r}_t = {r}_t + (tl.full([BLOCK, LANES], {ident}, tl.float32),)\n"
           f"    {r}_v = _st8({r}_t[0], {r}_t[1], {r}_t[2], {r}_t[3], {r}_t[4], {r}_t[5], {r}_t[6], {r}_t[7], BLOCK, LANES)\n"
           f"    {r}_p = _un8(tl.reshape({tree}({r}_v, BLOCK * 8, LANES, LOG2_LANES, PAIRS), [BLOCK, 8]), BLOCK)\n"
           f"    {r}_tot = tl.full([BLOCK], {ident}, tl.float32)\n"
           f"    for c in tl.static_range(NCH):\n"
           f"        {r}_tot = {comb}({r}_tot, {r}_p[c])\n")
    return body.replace(old, new, 1)


def patch(src, warps, batched):
    src = re.sub(r"^ROW_MAX_TILES = \d+", "ROW_MAX_TILES = 128", src, flags=re.M)
    anchor = "            warps = max(warps, min(16, block * LANES // 32, block * tiles * LANES // (32 * ROW_THREAD_ELEMS)))\n"
    assert anchor in src
    src = src.replace(anchor, anchor + f"        if tiles * LANES > 8192:\n            warps = {warps}\n", 1)
    if batched:
        start = src.index("def _k_rows_row(")
        end = src.index("@triton.jit", start)
        body = src[start:end]
        body = batch(body, "r_0", "_tree_max", "_max", 'float("-inf")')
        body = batch(body, "r_1", "_tree_sum", "_sum", "0.0")
        src = src[:start] + body + src[end:]
        src = src.replace('\n@triton.jit(do_not_specialize=["M", "R", "PID0"])\ndef _k_rows_row(',
                          HELPERS + '\n@triton.jit(do_not_specialize=["M", "R", "PID0"])\ndef _k_rows_row(', 1)
    return src


def raw(src):
    start = src.index("def _k_rows_row(")
    end = src.index("@triton.jit", start)
    body = src[start:end]
    old = "                in_0_v = in_0_v.to(tl.float32)\n                in_0_t = in_0_t + (in_0_v,)\n"
    assert old in body
    body = body.replace(old, "                in_0_t = in_0_t + (in_0_v,)\n")
    n = body.count("in_0_v = in_0_t[c * CT + u]\n")
    assert n >= 3, n
    body = body.replace("in_0_v = in_0_t[c * CT + u]\n", "in_0_v = in_0_t[c * CT + u].to(tl.float32)\n")
    return src[:start] + body + src[end:]


for op in ("softmax_held", "log_softmax_held"):
    src = (ROOT / f"generated/cuda/{op}.py").read_text()
    (OUT / f"{op}_hbr4.py").write_text(raw(patch(src, 4, True)))
    (OUT / f"{op}_hbr8.py").write_text(raw(patch(src, 8, True)))
    src = (ROOT / f"generated/cuda/{op}.py").read_text()
    (OUT / f"{op}_h8.py").write_text(patch(src, 8, False))
    (OUT / f"{op}_hb8.py").write_text(patch(src, 8, True))
print("ok")
