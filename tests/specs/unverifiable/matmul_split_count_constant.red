# expect: E110 at 10:1 contains "fixed_count 4" "use fixed_size (a multiple of 64)"
# a constant count is batch invariant, but its chunks start wherever K / 4 falls, not on
# K-tile boundaries: a contraction takes fixed_size only.
op matmul
in   a[M, K] : bf16 | f16 | f32
in   b[K, N] : like a
out  c[M, N] : like a
reduce K: c = sum(a * b)
tile   K = 64
split  K fixed_count 4
