# mm: c[M, N] = a[M, K] @ b[K, N], a contraction: the sum over K of a * b.
# Batch invariant: every c[m, n] sums its K products in tiles of 64, left to
# right, whatever M (the batch of tokens) and whichever program computes it.
op matmul
in   a[M, K] : bf16 | f16 | f32
in   b[K, N] : like a
out  c[M, N] : like a
acc  f32
reduce K: c = sum(a * b)
tile   K = 64
split  K none
