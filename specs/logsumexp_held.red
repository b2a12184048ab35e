# logsumexp of rows held on chip (specs/logsumexp.red gives it its rows of at most 16384
# elements): the row maximum m, then s = sum(exp(x - m)), then m + log(s). The row kernel
# reads the row once and takes one exp an element, where the online combine of
# softmax_stats takes two and a rescale (bf16 rows were bound by that arithmetic, not by
# their reads: docs/gpu_2026_11_28/README.md). An element equal to m counts exp(0) = 1
# exactly, so a row of -inf (m = -inf, where x - m would be nan) has s = N and gives
# -inf + log(N) = -inf, and a row holding +inf gives m = inf, as torch; NaN anywhere in
# a row gives NaN. The launcher views the input as x[M, N, K].
op logsumexp_held
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: m = max(x)
reduce N: s = sum(exp(where(x == m, 0, x - m)))
y = where(m > 3.4e38, m, m + log(s))
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
