# expect: E106 at 5:1
op sum
in   x[M, N, K] : f32
out  y[M, N]    : like x
reduce K: s = sum(x)
y = s
