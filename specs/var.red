# var over one axis (or a run of axes) of any tensor, as torch.var(x, dim, correction=1):
# one read of a row longer than 32768 elements with Welford's combiner, as torch: the
# mean and m2, the sum of squared deviations from it, together (no cancellation of
# sum(x^2) - sum(x)^2, and no second read for the deviations). N - correction <= 0
# divides by 0: inf or nan, as torch (one element with correction 1: 0 / 0 = nan).
# The launcher views the input as x[M, N, K].
op var
param correction = 1
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: (mu, m2) = welford(x)
y = m2 / max(N - correction, 0)
tile   N = 256, K = 16           # K: columns a cols program takes (H100, docs/gpu_2026_11_26/README.md run 30: 32 spilled the three-component state)
split  N fixed_size 4096
short  N <= 32768 : var_held     # rows of up to 32768 (all a row kernel holds): two passes over the held row, no division an element (runs 30, 143)
warps  4
cores  40
