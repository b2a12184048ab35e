# logsumexp over one axis (or a run of axes) of any tensor, as torch.logsumexp:
# log(sum(exp(x - c))) + c with c the row maximum, clamped to the finite range so that
# a row of -inf gives -inf (c finite: exp(-inf) = 0, log(0) = -inf) and a row with +inf
# gives inf (exp(inf - FLT_MAX) = inf), where an unclamped shift gives inf - inf = nan.
# NaN anywhere in a row gives NaN; an empty reduce axis gives -inf (both as torch).
# The launcher views the input as x[M, N, K].
op logsumexp
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: m = max(x)
c = min(max(m, -3.4e38), 3.4e38)
reduce N: s = sum(exp(x - c))
y = c + log(s)
tile   N = 256, K = 16
split  N fixed_size 4096
warps  4
cores  40
