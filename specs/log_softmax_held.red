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
# Rows that pad their stacked chunks by 4096-6143 elements (12288, 26625-28672) keep the row
# kernel's own form on grids of more than ROW_ACROSS_PROGRAMS (32) programs, where the other row
# ops go across (H100, runs 79-82 in docs/gpu_2026_11_26/README.md: bf16 4096 x 28000 173 us own,
# 206 across; 1024 x 12288 18.2, 20.5; at 256 rows across was 0.3-0.5 us faster, f32 256 x 12000
# 6.5 against 7.0).
tune cuda ROW_ACROSS_PAD = 4096
