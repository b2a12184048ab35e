# amax over one axis (or a run of axes) of any tensor, as torch.amax: NaN propagates;
# an empty reduce axis raises (max has no identity in torch).
# The launcher views the input as x[M, N, K]: M = the dims before the reduced
# ones, N = the reduced dims, K = the dims after.
op amax
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: m = max(x)
y = m
tile   N = 256, K = 32           # K: columns a cols program takes (H200 sweep, docs/gpu_2026_11_26/README.md)
split  N fixed_size 4096
warps  4
cores  40
tune cuda COLS_STACK_FLAT_LEAVES = 4  # 8 lost in bf16 (docs/gpu_2026_11_28/README.md run 115)
