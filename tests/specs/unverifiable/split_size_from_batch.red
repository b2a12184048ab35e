# expect: V201 at 10:1 contains "M=1: 64 chunks of 64; M=2: 32 chunks of 128" "the split size 'M * 64'" "constant size"
# a chunk length that grows with the batch: the chunk boundaries move with M.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 512, K = 16
split  N fixed_size M * 64
warps  4
cores  40
