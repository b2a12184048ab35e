# expect: E150 at 7:9
op mean
in   x[M, N] : f32
out  y[M]    : like x
acc  f32
reduce N: s = sum(x)
y = s * cores
cores 40
