# Cross-entropy per row, as torch.nn.functional.cross_entropy(x, t, reduction='none',
# ignore_index=-100): loss = logsumexp(x) - x[t] over the class dim, 0 where t is
# ignore_index. x[t] gathers x at class t of each row (t: an integer input, one class per
# row); the logsumexp is logsumexp.red's (clamped shift: -inf logits are fine). A target
# outside [0, N) other than ignore_index selects nothing: the loss is inf (torch raises).
# The launcher views the logits as x[M, N, K] (N = the class dim, `dim=1` as torch's
# [batch, classes, d1...] layout, or `dim=-1`) and the targets as t[M, K].
op cross_entropy
in   x[M, N, K] : f32 | f16 | bf16
in   t[M, K]    : i64
param ignore_index = -100
out  loss[M, K] : like x
acc  f32
reduce N: m = max(x)
reduce N: ignored = max(t == ignore_index)
c = min(max(m, -3.4e38), 3.4e38)
reduce N: s = sum(exp(x - c))
g = x[t]
loss = where(ignored, 0, c + log(s) - g)
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
