# expect: E121 at 8:1
op matmul_tuned
in   a[M, K] : f32
in   b[K, N] : like a
out  c[M, N] : like a
acc  f32
reduce K: c = sum(a * b)
tune cuda SPLIT_BELOW = 0
split  K none
