# logsumexp over one axis (or a run of axes) of any tensor, as torch.logsumexp:
# m + log(s) with m the row maximum and s = sum(exp(x - m)), both from one pass of the
# online-softmax combiner (rows of at most 16384 elements go to logsumexp_held: short).
# softmax_stats counts a -inf element as exactly 0 (also when m is -inf), so a row of
# -inf (or an empty reduce axis) has s = 0 and gives -inf + log(0) = -inf; a row holding
# +inf has m = inf and s = nan (exp(inf - inf)): it gives m, inf, as torch does (m >
# 3.4e38 holds only for +inf: the largest float32 is 3.4028235e38, and there m + log(s)
# rounds to m anyway). NaN anywhere in a row gives NaN (m is NaN, and NaN > 3.4e38 is
# false). The launcher views the input as x[M, N, K].
op logsumexp
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = where(m > 3.4e38, m, m + log(s))
tile   N = 256, K = 8   # K: columns a cols program takes (16 spilled the folded groups' states: 0.72-0.97x the time at 8, H200 run 173, docs/gpu_2026_11_28/README.md)
split  N fixed_size 4096
short  N <= 16384 : logsumexp_held  # rows of up to 16384 held on chip: max, then sum(exp(x - m)), one exp an element (run 149: rows of 32000 lost)
warps  4
cores  40
