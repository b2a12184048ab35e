# bmm: c[B, M, N] = a[B, M, K] @ b[B, K, N], one matrix product per batch entry.
op bmm
in   a[B, M, K] : bf16 | f16 | f32
in   b[B, K, N] : like a
out  c[B, M, N] : like a
acc  f32
reduce K: c = sum(a * b)
tile   K = 64
split  K none
