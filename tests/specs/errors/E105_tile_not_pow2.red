# expect: E105 at 8:12
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 500, K = 16
split  N fixed_size 2048
warps  4
cores  40
