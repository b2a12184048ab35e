# expect: E107 at 7:12
op sum
in   x[M, N, K] : f32
out  y[M, K]    : like x
reduce N: s = sum(x)
y = s
cores 40 / 0
