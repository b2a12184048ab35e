# expect: E119 at 6:5
op ce
in   x[M, N] : f32
in   t[M]    : i64
out  y[M]    : f32
g = x[t]
reduce N: s = sum(x)
y = s - g
