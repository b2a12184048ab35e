# L2 normalization over one axis (or a run of axes), like
# torch.nn.functional.normalize(x, p=2, dim=dim, eps=eps): y = x / max(||x||, eps).
op l2_normalize
in    x[M, N, K] : f32 | f16 | bf16
param eps = 1e-12
out   y[M, N, K] : like x
acc   f32
reduce N: ss = sum(x * x)
y = x * rsqrt(max(ss, eps * eps))
tile  N = 256, K = 16
split N fixed_size 4096
warps 4
cores 40
