# expect: E120 at 8:7
op softmax
in   x[M, N] : f32
out  y[M, N] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = exp(x - m) / s
short M <= 8192 : softmax_held
