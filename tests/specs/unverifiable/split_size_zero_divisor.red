# expect: E110 at 9:1 contains "divisor" "can be 0" "divide by zero"
# a divisor that is 0 at M = 2: the launcher would raise there (z3 never reasons about x / 0).
op mean
in   x[M, N, K] : f32
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
split  N fixed_size 2048 + 64 / (M - 2)
