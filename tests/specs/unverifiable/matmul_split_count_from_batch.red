# expect: V201 at 10:1 contains "depends on M and cores" "the split count 'cores / M'" "use fixed_size" "a multiple of the K tile"
# split-K the way libraries fill the GPU at small batch: more K chunks when M is small.
# The chunk boundaries of every c[m, n] then move with M: refused.
op matmul
in   a[M, K] : bf16 | f16 | f32
in   b[K, N] : like a
out  c[M, N] : like a
reduce K: c = sum(a * b)
tile   K = 64
split  K fixed_count cores / M
