# expect: E110 at 7:20
op sum
in   x[M, N, K] : f32
out  y[M, K]    : like x
reduce N: s = sum(x)
y = s
split N fixed_size 0
