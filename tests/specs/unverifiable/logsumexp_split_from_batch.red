# expect: V201 at 11:1 contains "the order of lse[m] depends on M" "M=1: 64 chunks of 64; M=2: 32 chunks of 128"
# two reductions (max, then sum of exp): one split policy shapes both, and both outputs' orders.
op logsumexp
in   x[M, N] : f32 | f16 | bf16
out  lse[M]  : like x
acc  f32
reduce N: m = max(x)
reduce N: s = sum(exp(x - m))
lse = m + log(s)
tile   N = 256
split  N fixed_count 64 / M
cores  40
