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
# Packed bf16/f16 rows past 80 words a thread in the own form (rows of more than 20480 on grids of
# more than ROW_FEW_PROGRAMS) go across: there triton 3.6's ptxas spills this op's own form (56 bytes
# a thread at 24576, 160 at 26624; softmax_held's does not), and on an H200 across was faster
# (run 218 in docs/gpu_2026_12_02/README.md: bf16 4096 x 24576 155.5 -> 134.3 us, torch 150.1;
# 16384 x 24576 545.7 -> 525.2; 4096 x 22528 129.4 -> 125.3).
tune cuda ROW_ACROSS_PACK_WORDS = 80
# Six-chunk packed rows across (20481-24576 elements) take ROW_ACROSS_PACK_LANES lanes a thread in 8
# warps, as layer_norm's (run 223, the bits the same: bf16 4096 x 24576 134.4 -> 131.0 us; 16384 x
# 24576 527.4 -> 507.6; 4096 x 22528 125.1 -> 124.8).
tune cuda ROW_ACROSS_PACK_CHUNKS = 6
