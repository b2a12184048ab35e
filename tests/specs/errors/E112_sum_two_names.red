# expect: E112 at 6:12
op total
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: (s, t) = sum(x)
y = s + t
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
