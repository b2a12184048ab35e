# expect: E121 at 8:6
op softmax_tuned
in   x[M, N] : f32
out  y[M, N] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = exp(x - m) / s
tune gpu ROW_ACROSS_PAD = 4096
