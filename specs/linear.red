# linear: y[M, N] = x[M, K] @ w[N, K]^T + bias[N], torch.nn.functional.linear's
# layout (the weight stored [out_features, in_features], read in place).
op linear
in   x[M, K]  : bf16 | f16 | f32
in   w[N, K]  : like x
in   bias[N]  : like x
out  y[M, N]  : like x
acc  f32
reduce K: s = sum(x * w)
y = s + bias
tile   K = 64
split  K none
