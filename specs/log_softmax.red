# log_softmax over one axis (or a run of axes) of any tensor, like torch.log_softmax.
# The launcher views the input as x[M, N, K]: M = the dims before the reduced
# ones, N = the reduced dims, K = the dims after. y has the input's shape.
# One pass for the statistics (the online-softmax combiner: the row max m and
# s = sum(exp(x - m))), then y = x - m - log(s) element-wise: a row of -inf gives
# nan (-inf - -inf), a row holding +inf or nan gives nan, as torch does.
op log_softmax
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, N, K] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = x - m - log(s)
tile   N = 512, K = 16           # N: lanes (H200 sweep, docs/gpu_2026_11_26/README.md); K: columns a cols program takes (32 spilled a [512, 32] tile of (max, sum) states: 0.07-0.44x the time at 16, H200 run 170, docs/gpu_2026_11_28/README.md)
split  N fixed_size 4096
short  N <= 32768 : log_softmax_held  # rows of up to 32768 held on chip: max, then sum(exp(x - m)) (runs 12, 55-56, 64)
warps  4
cores  40
