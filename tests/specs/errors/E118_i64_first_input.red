# expect: E118 at 3:16
op argmax
in   x[M, N] : i64
out  y[M]    : i64
reduce N: i = argmax(x)
y = i
