# expect: V201 at 9:12 contains "the reduce tile 'M * 128'" "M=1: 2 chunks of 2048, tiles of 128; M=2: 2 chunks of 2048, tiles of 256" "make the tile of N a constant"
# a reduce tile (lane count) chosen from the batch: the lane tree changes with M.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = M * 128, K = 16
split  N fixed_size 2048
warps  4
cores  40
