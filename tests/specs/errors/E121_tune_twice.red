# expect: E121 at 9:11
op softmax_tuned
in   x[M, N] : f32
out  y[M, N] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = exp(x - m) / s
tune cuda ROW_ACROSS_PAD = 4096
tune cuda ROW_ACROSS_PAD = 2048
