# expect: V201 at 10:1 contains "depends on K" "K=1: 1 chunk of 4096; K=2: 2 chunks of 2048"
# K (the dims after the reduced ones) is a batch axis too: one chunk per output column is not invariant.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 512, K = 16
split  N fixed_count K
warps  4
cores  40
