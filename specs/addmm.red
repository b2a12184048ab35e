# addmm: c[M, N] = bias[N] + a[M, K] @ b[K, N]; the bias is added to the f32 sum
# (the epilogue), then rounded once to the output dtype.
op addmm
in   a[M, K] : bf16 | f16 | f32
in   b[K, N] : like a
in   bias[N] : like a
out  c[M, N] : like a
acc  f32
reduce K: s = sum(a * b)
c = s + bias
tile   K = 64
split  K none
