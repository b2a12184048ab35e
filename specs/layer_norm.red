# Layer normalization over the trailing dim(s), like torch.nn.functional.layer_norm,
# with the statistics of torch.native_layer_norm: returns (y, mean, rstd).
# The launcher views the input as x[M, N]: N = the normalized dims (the
# trailing ones), M = all the dims before them; weight w and bias b have the
# normalized dims' shape. y has the input's shape; mean and rstd (f32) one value
# per normalized row, the normalized dims kept as size 1 (as native_layer_norm).
# Two passes: the mean first, then the sum of squared deviations from it (no
# cancellation, unlike E[x^2] - E[x]^2).
op layer_norm
in   x[M, N] : f32 | f16 | bf16
in   w[N]    : f32 | f16 | bf16
in   b[N]    : f32 | f16 | bf16
param eps = 1e-5
out  y[M, N]  : like x
out  mean[M]  : f32
out  rstd[M]  : f32
acc  f32
reduce N: s = sum(x)
mu = s / N
reduce N: ss = sum((x - mu) * (x - mu))
r = rsqrt(ss / N + eps)
y = (x - mu) * r * w + b
# torch's statistic (CUDA's) where the formula's differs: a row of more than one element
# holding an infinity has a NaN mean (Welford's inf - inf); one element is its own mean.
# mu - mu is 0 exactly when mu is finite, else NaN.
mean = where(N == 1, mu, where(mu - mu == 0, mu, mu - mu))
rstd = r
tile   N = 256
split  N fixed_size 4096
warps  4
cores  40
# Packed bf16/f16 rows past 80 words a thread in the row kernel's own form (rows of more than
# 20480 elements on grids of more than ROW_FEW_PROGRAMS) go across, as log_softmax_held's. On an
# H200 (run 219 in docs/gpu_2026_12_02/README.md), the bits the same:
# bf16 4096 x 24576 173.9 -> 130.2 us (55 -> 73% of the copy bandwidth),
# 16384 x 24576 660.2 -> 500.7 (76%), 4096 x 22528 150.4 -> 128.7, 4096 x 26000 189.2 -> 140.1.
# Rows of 20000 (78 words) stay in the own form: across lost there (run 220: 16384 x 20000
# 415.2 against 477.7). Its across form also compiles in under a minute where the own form
# took about four (triton 3.6, scripts/kernel_sass.py at 4096 x 24576: 4584 SASS instructions, 1200).
tune cuda ROW_ACROSS_PACK_WORDS = 80
# Six-chunk packed rows across (20481-24576 elements) take ROW_ACROSS_PACK_LANES lanes a thread in 8
# warps, where rms_norm's take ROW_ACROSS_LANES in 16 (run 223, the bits the same:
# bf16 4096 x 24576 129.9 -> 123.2 us, 73 -> 77%; 16384 x 24576 502.4 -> 465.9, 81%; 4096 x 22528
# 128.6 -> 126.2). Seven chunks lost (4096 x 26000 140.3 -> 149.7), and rms_norm lost at six.
tune cuda ROW_ACROSS_PACK_CHUNKS = 6
