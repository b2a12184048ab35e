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
