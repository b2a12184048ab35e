# expect: ok  (2 * the row sum: `ok` once reached the load mask unmangled)
op scaled_sum
in   x[M, N] : f32
param ok = 2.0
out  y[M]    : like x
acc  f32
reduce N: s = sum(x * ok)
y = s
