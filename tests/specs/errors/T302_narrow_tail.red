# expect: T302 at 9:12
# ascend: a tile's tail must be a multiple of 32 bytes; 8 lanes of f16 are 16.
op thin_sum
in   x[M, N] : f16
out  y[M]    : like x
acc  f32
reduce N: s = sum(x)
y = s
tile   N = 8
