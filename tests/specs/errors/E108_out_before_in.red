# expect: E108 at 3:1
op mean
out  y[M, K] : f32
in   x[M, N, K] : f32
reduce N: s = sum(x)
y = s
