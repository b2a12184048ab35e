# var of rows held on chip (specs/var.red gives it its rows of at most 32768 elements):
# two passes, the mean first, then the sum of squared deviations from it (no
# cancellation of sum(x^2) - sum(x)^2). N - correction <= 0 divides by 0: inf or
# nan, as torch (one element with correction 1: 0 / 0 = nan).
# The launcher views the input as x[M, N, K].
op var_held
param correction = 1
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
mu = s / N
d = x - mu
reduce N: ss = sum(d * d)
y = ss / max(N - correction, 0)
tile   N = 256, K = 32           # K: columns a cols program takes (H200 sweep, docs/gpu_2026_11_26/README.md)
split  N fixed_size 4096
warps  4
cores  40
