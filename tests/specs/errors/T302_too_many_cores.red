# expect: T302 at 9:1
# ascend: a fixed core budget above the 48 vector cores of the largest Atlas A2.
op busy_sum
in   x[M, N] : f32
out  y[M]    : like x
acc  f32
reduce N: s = sum(x)
y = s
cores  64
