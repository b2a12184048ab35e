# expect: E112 at 6:11
op lse
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: m = softmax_stats(x)
y = m
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
