# sum over one axis (or a run of axes) of any tensor.
# The launcher views the input as x[M, N, K]: M = the dims before the reduced
# ones, N = the reduced dims, K = the dims after.
op sum
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s
tile   N = 256, K = 32           # K: columns a cols program takes (H100 sweep, docs/gpu_2026_11_25/README.md)
split  N fixed_size 4096
warps  4
cores  40
# Rows of at most 128 elements in the cols kernel (N <= SHORT_TILE_MAX, K >= 128) take 128 columns
# a program, not the 64 of the other one-reduction ops (H100, runs 86-88 in
# docs/gpu_2026_11_26/README.md: sum bf16 1024 x 128 x 1024 96 us at 128 against 127 at 64, torch 93).
tune cuda COLS_TILE_BLOCK = 128
