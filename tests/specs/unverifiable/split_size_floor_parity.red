# expect: V201 at 10:1 contains "depends on M" "M=1" "M=2"
# M / -2 + M / 2 is 0 under Euclidean division (z3's) but -(M % 2) under Python's floor
# division (the launcher's): a split size that depends on the batch parity.
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
split  N fixed_size 1024 * (2 + M / -2 + M / 2)
