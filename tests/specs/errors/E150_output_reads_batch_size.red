# expect: E150 at 7:9
op mean
in   x[M, N, K] : f32
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / M
