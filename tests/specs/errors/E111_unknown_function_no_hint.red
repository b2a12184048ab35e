# expect: E111 at 6:19
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(lgamma(x))
y = s / N
tile   N = 512, K = 16
split  N fixed_size 2048
warps  4
cores  40
