# softmax of rows held on chip (specs/softmax.red gives it its rows of at most 32768 elements):
# the row maximum m, then s = sum(exp(x - m)), then y = exp(x - m) / s. The row kernel reads
# the row once and computes each exp once (it is the same value in the sum and in y), where
# the online combine of softmax_stats takes an exp per element for the statistics and
# rescales; a row that is not held (the cols kernels, the split path) is read once a stage.
# A row of -inf gives m = -inf, exp(nan) = nan; +inf or nan in a row gives nan, as torch.
op softmax_held
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, N, K] : like x
acc  f32
reduce N: m = max(x)
reduce N: s = sum(exp(x - m))
y = exp(x - m) / s
tile   N = 256, K = 32           # N: lanes (H100 sweep against 512, docs/gpu_2026_11_26/README.md run 12)
split  N fixed_size 4096
warps  4
cores  40
