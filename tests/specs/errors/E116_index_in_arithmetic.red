# expect: E116 at 6:5
op argmax
in   x[M, N] : f32
out  y[M]    : i64
reduce N: i = argmax(x)
y = i + 1
