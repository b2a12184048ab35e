# expect: E103 at 5:6
op argmax
in   x[M, N] : f32
out  y[M]    : i64
acc  i64
reduce N: i = argmax(x)
y = i
