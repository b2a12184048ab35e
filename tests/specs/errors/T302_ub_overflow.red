# expect: T302 at 11:12
# ascend: a reduce tile of 16384 lanes needs 16384 x 14 bytes (f16 tile + its f32
# copy + f32 accumulator + a temporary) = 229376 bytes of Unified Buffer per
# program, over the 98304 available (half of 192 KB): error T302 at the tile.
op wide_mean
in   x[M, N] : f32 | f16
out  y[M]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 16384
split  N fixed_size 65536
