"""Run 202's variants of the held rows' across kernel (softmax_held, log_softmax_held): OPQ xors the
held words with a zero the compiler cannot know (M >> 31) before the output sweep, so what the sweep
computes from them (x - m, its exp) is computed again rather than held from the sum's pass; MAXNREG
caps the registers (maxnreg) so that two programs of 16 warps fit a multiprocessor."""
import os, sys
VARIANTS = {"v_opq": (1, 0), "v_opq64": (1, 64), "v_r64": (0, 64), "v_all": (2, 0), "v_all64": (2, 64)}
HELPER = '''@triton.jit
def _opaque(t, zero):
    # The held words xor a zero the compiler cannot know (a size's sign bits, 0 at run time).
    return t ^ zero


'''
for op in ("softmax_held", "log_softmax_held"):
    src = open(f"generated/cuda/{op}.py").read()
    i = src.index("@triton.jit\ndef _stack2(")
    src = src[:i] + HELPER + src[i:]
    a = src.index("def _k_rows_across(")
    head, tail = src[:a], src[a:]
    tail = tail.replace("    PACK: tl.constexpr,\n):", "    PACK: tl.constexpr,\n    OPQ: tl.constexpr = 0,\n):", 1)
    smark = "    r_1_tot = tl.full([BLOCK], 0.0, tl.float32)\n"
    assert smark in tail
    tail = tail.replace(smark, '''    if PACK and OPQ > 1:
        in_0_o = ()
        for u in tl.static_range(CT):
            in_0_o = in_0_o + (_opaque(in_0_t[u], M >> 31),)
        in_0_t = in_0_o
''' + smark, 1)
    mark = "    # Outputs over the reduce axis, element-wise from the final totals and the held tiles."
    assert mark in tail
    tail = tail.replace(mark, '''    if PACK and OPQ > 0:
        in_0_o = ()
        for u in tl.static_range(CT):
            in_0_o = in_0_o + (_opaque(in_0_t[u], M >> 31),)
        in_0_t = in_0_o
''' + mark, 1)
    src = head + tail
    old = '            consts["num_warps"] = warps\n'
    assert old in src
    for name, (opq, reg) in VARIANTS.items():
        s = src.replace(old, old + f'            consts["OPQ"] = {opq}\n' + (f'            consts["maxnreg"] = {reg}\n' if reg else ""))
        os.makedirs(f"_scratch/r202/{name}", exist_ok=True)
        open(f"_scratch/r202/{name}/__init__.py", "w").close()
        open(f"_scratch/r202/{name}/{op}.py", "w").write(s)
