# expect: V201 at 10:1 contains "M=1: 2 chunks of 2048; M=100000: 2 chunks of 2049"
# a dependence that only shows at a large batch: the small-size search misses it, z3 finds the smallest batch that differs.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 512, K = 16
split  N fixed_size 2048 + M / 100000
warps  4
cores  40
