# Negative log-likelihood per row, as torch.nn.functional.nll_loss(x, t, reduction='none',
# ignore_index=-100) with no class weights: loss = -x[t] over the class dim, 0 where t is
# ignore_index. x holds log-probabilities (log_softmax's output: cross_entropy is
# log_softmax then nll_loss, and batch-invariant mode routes both). x[t] gathers x at class
# t of each row (t: an integer input, one class per row). A target outside [0, N) other
# than ignore_index selects nothing: the loss is inf (torch raises).
# The launcher views x as x[M, N, K] (N = the class dim: `dim=1` for torch's
# [batch, classes, d1...] layout) and the targets as t[M, K].
op nll_loss
in   x[M, N, K] : f32 | f16 | bf16
in   t[M, K]    : i64
param ignore_index = -100
out  loss[M, K] : like x
acc  f32
reduce N: ignored = max(t == ignore_index)
g = x[t]
loss = where(ignored, 0, -g)
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
