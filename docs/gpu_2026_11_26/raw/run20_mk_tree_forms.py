from pathlib import Path
src = Path("generated/cuda/mean.py").read_text()
call = "_tree_sum(tl.trans(r_0_acc), BLOCK, LANES, LOG2_LANES, PAIRS)"
assert src.count(call) == 2
fn = '''

@triton.jit
def _tree_sum_t(v0, ROWS: tl.constexpr, LANES: tl.constexpr, LOG2_LANES: tl.constexpr):
    for i in tl.static_range(LOG2_LANES):
        v0 = tl.reduce(tl.reshape(v0, [LANES >> (i + 1), 2, ROWS]), 1, _sum)
    return tl.reshape(v0, [ROWS])


@triton.jit
def _tree_sum_s(v0, ROWS: tl.constexpr, LANES: tl.constexpr, LOG2_LANES: tl.constexpr):
    for i in tl.static_range(LOG2_LANES):
        a0, b0 = tl.split(tl.permute(tl.reshape(v0, [LANES >> (i + 1), 2, ROWS]), 0, 2, 1))
        v0 = _sum(a0, b0)
    return tl.reshape(v0, [ROWS])
'''
anchor = "\n\n@triton.jit(do_not_specialize=[\"M\", \"R\"])\ndef _k_rows_partial0("
assert anchor in src
base = src.replace(anchor, fn + anchor, 1)
Path("bench_variants/mean_c_ttree.py").write_text(base.replace(call, "_tree_sum_t(r_0_acc, BLOCK, LANES, LOG2_LANES)"))
Path("bench_variants/mean_c_stree.py").write_text(base.replace(call, "_tree_sum_s(r_0_acc, BLOCK, LANES, LOG2_LANES)"))
Path("bench_variants/mean_c_splitf.py").write_text(src.replace(call, "_tree_sum(tl.trans(r_0_acc), BLOCK, LANES, LOG2_LANES, False)"))
