# expect: V201 at 9:12 contains "the reduce tile 'cores * 16'" "cores=40: 7 chunks of 586, tiles of 640; cores=48: 7 chunks of 586, tiles of 768"
# a reduce tile sized from the core budget.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = cores * 16, K = 16
split  N fixed_count 7
warps  4
cores  40
