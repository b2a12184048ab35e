# Cross-entropy per row, as torch.nn.functional.cross_entropy(x, t, reduction='none',
# ignore_index=-100): loss = logsumexp(x) - x[t] over the class dim, 0 where t is
# ignore_index. x[t] gathers x at class t of each row (t: an integer input, one class per
# row); logsumexp(x) = m + log(s) from one pass of the online-softmax combiner (-inf
# logits are fine: they add exactly 0 to s). A row holding +inf has s = nan, so its loss
# is nan, as torch's; a row of -inf gives -inf - -inf = nan, as torch's. Every reduction
# reads only x and t, so all run in one pass over the row. A target outside [0, N) other
# than ignore_index selects nothing: the loss is inf (torch raises). The launcher views the logits as x[M, N, K] (N = the class dim, `dim=1`
# as torch's [batch, classes, d1...] layout, or `dim=-1`) and the targets as t[M, K].
op cross_entropy
in   x[M, N, K] : f32 | f16 | bf16
in   t[M, K]    : i64
param ignore_index = -100
out  loss[M, K] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
reduce N: ignored = max(t == ignore_index)
g = x[t]
loss = where(ignored, 0, m + log(s) - g)
tile   N = 256, K = 8   # K: columns a cols program takes (16 spilled the folded groups' states: 0.72-0.97x the time at 8, H200 run 173, docs/gpu_2026_11_28/README.md)
split  N fixed_size 4096
warps  4
cores  40
