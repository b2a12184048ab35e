# RMS normalization over the trailing dim(s), like torch.nn.functional.rms_norm.
# The launcher views the input as x[M, N]: N = the normalized dims (the
# trailing ones, e.g. a model's hidden size), M = all the dims before them;
# the weight w has the normalized dims' shape. y has the input's shape.
# eps defaults to 1e-6 (torch's default, None, means finfo(x.dtype).eps: pass
# that explicitly for torch's behaviour; batch-invariant mode does).
op rms_norm
in   x[M, N] : f32 | f16 | bf16
in   w[N]    : f32 | f16 | bf16
param eps = 1e-6
out  y[M, N] : like x
acc  f32
reduce N: ss = sum(x * x)
r = rsqrt(ss / N + eps)
y = x * r * w
tile   N = 256
split  N fixed_size 4096
warps  4
cores  40
# Packed bf16/f16 rows past 80 words a thread in the row kernel's own form (rows of more than
# 20480 elements on grids of more than ROW_FEW_PROGRAMS) go across, as log_softmax_held's. On an
# H200 (run 219 in docs/gpu_2026_12_02/README.md), the bits the same:
# bf16 4096 x 24576 137.7 -> 103.8 us (69 -> 92% of the copy bandwidth),
# 16384 x 24576 526.9 -> 396.2 (96%), 4096 x 22528 113.7 -> 96.5, 4096 x 26000 147.7 -> 109.4.
# Rows of 20000 (78 words) stay in the own form: across lost there (run 220: 16384 x 20000
# 340.0 against 358.9).
tune cuda ROW_ACROSS_PACK_WORDS = 80
