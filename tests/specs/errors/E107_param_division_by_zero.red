# expect: E107 at 3:13
op sum
param eps = 1 / 0
in   x[M, N, K] : f32
out  y[M, K]    : like x
reduce N: s = sum(x)
y = s
