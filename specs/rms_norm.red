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
