# expect: V201 at 9:1 contains "depends on N" "the split size 'N * 64'"
# a chunk length from the output width: N is a batch axis of a contraction too.
op matmul
in   a[M, K] : bf16 | f16 | f32
in   b[K, N] : like a
out  c[M, N] : like a
reduce K: c = sum(a * b)
tile   K = 64
split  K fixed_size N * 64
