# Sum over one axis (or a run of axes) treating NaN as zero, as torch.nansum: a masked
# sum, where(x != x, 0, x) selects (0 * NaN would be NaN). The launcher views the input as
# x[M, N, K] (as sum.red).
op nansum
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(where(x != x, 0, x))
y = s
tile   N = 256, K = 32           # K: columns a cols program takes (H200 sweep, docs/gpu_2026_11_26/README.md)
split  N fixed_size 4096
warps  4
cores  40
# The stack walk's leaves 4 a loop iteration at every length: groups of 8 (COLS_STACK_WIDE_LEAVES, at
# rows of 65-128 on many columns) lost for nansum where they won for sum (H200, run 111 in
# docs/gpu_2026_11_28/README.md: f32 192 x 100 x 1000 25.8 -> 28.5 us, bf16 2048 x 128 x 128 23.8 -> 28.8).
tune cuda COLS_STACK_WIDE_LEAVES = 4
