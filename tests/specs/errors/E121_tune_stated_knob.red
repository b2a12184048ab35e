# expect: E121 at 8:11
op softmax_tuned
in   x[M, N] : f32
out  y[M, N] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = exp(x - m) / s
tune cuda SPLIT_BELOW = 0
