# argmin over one axis of any tensor (dim=None: over all elements, flattened), as
# torch.argmin: int64 indices, the first index of the minimum, NaN counts as the
# minimum (the first NaN's index); an empty reduce axis raises.
# The launcher views the input as x[M, N, K].
op argmin
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : i64
acc  f32
reduce N: i = argmin(x)
y = i
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
tune cuda ROWS_NARROW_SPLIT_BLOCK = 2  # two rows a program on the split path: docs/gpu_2026_12_02/README.md run 231
tune cuda ROWS_TAIL_UNROLL = 4  # groups of 4 where a last chunk walked 5-7 tiles alone: docs/gpu_2026_12_02/README.md runs 240-241
