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
