# expect: E116 at 7:23
op argmax
in   x[M, N] : f32
out  y[M]    : i64
out  z[M]    : like x
reduce N: i = argmax(x)
reduce N: s = sum(x - i)
y = i
z = s
