# expect: V201 at 10:1 contains "the split size 'cores * 64'" "cores=40: 2 chunks of 2560; cores=48: 2 chunks of 3072"
# a chunk length scaled by the core budget.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 512, K = 16
split  N fixed_size cores * 64
warps  4
cores  40
