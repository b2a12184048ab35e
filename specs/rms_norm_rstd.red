# RMS normalization with its statistic, like torch's aten._fused_rms_norm: returns (y, rstd).
# The launcher views the input as x[M, N]: N = the normalized dims (the trailing ones), M = all
# the dims before them; w has the normalized dims' shape. y has the input's shape; rstd (f32)
# one value per normalized row, the normalized dims kept as size 1 (what backward reads).
# batch-invariant mode routes _fused_rms_norm here: one launch, rstd the very r that scaled y.
op rms_norm_rstd
in   x[M, N] : f32 | f16 | bf16
in   w[N]    : f32 | f16 | bf16
param eps = 1e-6
out  y[M, N]   : like x
out  rstd[M]   : f32
acc  f32
reduce N: ss = sum(x * x)
r = rsqrt(ss / N + eps)
y = x * r * w
rstd = r
tile   N = 256
split  N fixed_size 4096
warps  4
cores  40
# Packed bf16/f16 rows past 80 words a thread in the row kernel's own form (rows of more than
# 20480 elements on grids of more than ROW_FEW_PROGRAMS) go across, as log_softmax_held's. On an
# H200 (run 220 in docs/gpu_2026_12_02/README.md), the bits the same:
# bf16 4096 x 24576 141.5 -> 104.8 us (67 -> 91% of the copy bandwidth),
# 16384 x 24576 548.3 -> 400.7 (95%), 4096 x 22528 123.3 -> 97.2.
tune cuda ROW_ACROSS_PACK_WORDS = 80
