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
