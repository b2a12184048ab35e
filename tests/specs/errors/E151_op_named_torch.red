# expect: E151 at 2:4
op torch
in   x[M, N] : f32
out  y[M]    : like x
acc  f32
reduce N: s = sum(x)
y = s
