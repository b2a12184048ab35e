# entropy of softmax(x) per row: a second stage reads both statistics of softmax_stats
op softmax_entropy
in   x[M, N, K] : f32 | f16 | bf16
out  h[M, K]    : like x
out  p[M, N, K] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
reduce N: e = sum(exp(x - m) / s * (x - m - log(s)))
h = -e
p = exp(x - m) / s
tile   N = 16, K = 16             # small lanes and chunks: the build's interpreter run stays short
split  N fixed_size 64
warps  4
cores  40
