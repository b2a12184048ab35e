# expect: V201 at 9:1 contains "depends on M"
# only differs at M >= 2^39: the refutation bound covers sizes up to 2^40.
op mean
in   x[M, N, K] : f32
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
split  N fixed_size 2048 + M / 549755813888
