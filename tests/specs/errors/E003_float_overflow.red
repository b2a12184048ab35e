# expect: E003 at 4:15
op big
in x[M, N] : f32
param scale = 1e999
out y[M] : like x
reduce N: s = sum(x)
y = s * scale
