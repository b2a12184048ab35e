# expect: E108 at 2:4
op mean
in   x[M, N, K] : f32
out  y[M, K]    : like x
y = 1
