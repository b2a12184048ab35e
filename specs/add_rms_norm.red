# Fused residual add + RMS normalization (vLLM's fused_add_rms_norm), two outputs:
#   h = x + r                          the new residual stream, in x's dtype
#   y = h * rsqrt(mean(h * h) + eps) * w
# The sum and the norm are computed in float32 from the float32 sum x + r (h is rounded to
# x's dtype only when it is stored). The launcher views the inputs as [M, N]: N = the
# normalized dim(s) (the hidden size), M = every dim before them; w has N's shape.
op add_rms_norm
in   x[M, N] : f32 | f16 | bf16
in   r[M, N] : f32 | f16 | bf16
in   w[N]    : f32 | f16 | bf16
param eps = 1e-6
out  h[M, N] : like x
out  y[M, N] : like x
acc  f32
reduce N: ss = sum((x + r) * (x + r))
rr = rsqrt(ss / N + eps)
h = x + r
y = (x + r) * rr * w
tile   N = 256
split  N fixed_size 4096
warps  4
cores  40
