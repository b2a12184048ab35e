# expect: V201 at 8:12 contains "depends on M" "the reduce tile"
# the K tile from the batch: the K tiles of every c[m, n] change with M.
op matmul
in   a[M, K] : bf16 | f16 | f32
in   b[K, N] : like a
out  c[M, N] : like a
reduce K: c = sum(a * b)
tile   K = M * 64
