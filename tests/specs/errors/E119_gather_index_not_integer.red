# expect: E119 at 6:7
op ce
in   x[M, N] : f32
out  y[M]    : f32
reduce N: m = max(x)
y = x[m]
