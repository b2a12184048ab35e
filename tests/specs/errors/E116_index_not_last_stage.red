# expect: E116 at 6:1
op argmax_and_var
in   x[M, N] : f32
out  y[M]    : i64
out  v[M]    : like x
reduce N: i = argmax(x)
reduce N: s = sum(x)
mu = s / N
reduce N: ss = sum((x - mu) * (x - mu))
y = i
v = ss / N
