# expect: E118 at 5:19
op ce
in   x[M, N] : f32
in   t[M]    : i64
reduce N: s = sum(t * x)
out  y[M]    : f32
y = s
