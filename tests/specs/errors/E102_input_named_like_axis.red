# expect: E102 at 3:4
op sum
in N[M, N, K] : f32
out  y[M, K]    : like N
reduce N: s = sum(N)
y = s
