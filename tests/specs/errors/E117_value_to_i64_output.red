# expect: E117 at 4:16
op amax
in   x[M, N] : f32
out  y[M]    : i64
reduce N: m = max(x)
y = m
