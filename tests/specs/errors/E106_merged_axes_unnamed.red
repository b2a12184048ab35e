# expect: E106 at 5:8
op mean2
in   x[A, N1, B, N2] : f32
out  y[A, B]         : like x
reduce N1, N2: s = sum(x)
y = s
