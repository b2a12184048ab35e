# An index combiner beside an order-sensitive one: on cuda argmax's lanes meet in
# tl.reduce's tree and the sum's in the pairwise tree, in one kernel.
op argmax_and_sum
in   x[M, N] : f32 | bf16
out  i[M]    : i64
out  s[M]    : f32
acc  f32
reduce N: j = argmax(x)
reduce N: t = sum(x)
i = j
s = t
tile   N = 64
split  N fixed_size 256
warps  2
