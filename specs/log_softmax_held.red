# log_softmax of rows held on chip (specs/log_softmax.red gives it its rows of at most 32768
# elements): the row maximum m, then s = sum(exp(x - m)), then y = x - m - log(s). One exp an
# element and no rescaling, where the online combine of softmax_stats rescales as the maximum
# grows; the row kernel reads the row once. A row of -inf gives nan, +inf or nan gives nan,
# as torch.
op log_softmax_held
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, N, K] : like x
acc  f32
reduce N: m = max(x)
reduce N: s = sum(exp(x - m))
y = x - m - log(s)
tile   N = 256, K = 32           # N: lanes (as softmax_held; docs/gpu_2026_11_26/README.md run 12)
split  N fixed_size 4096
warps  4
cores  40
