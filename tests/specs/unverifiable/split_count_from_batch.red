# expect: V201 at 10:1 contains "M=1: 40 chunks of 103; M=2: 20 chunks of 205; use fixed_size" "depends on M and cores" "N=4096, cores=40"
# the way libraries fill the GPU at small batch: fewer rows -> more chunks. The order changes with M.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 512, K = 16
split  N fixed_count cores / M
warps  4
cores  40
