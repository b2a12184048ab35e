# expect: E117 at 4:21
op argmax
in   x[M, N] : f32 | f16 | bf16
out  y[M]    : like x
reduce N: i = argmax(x)
y = i
