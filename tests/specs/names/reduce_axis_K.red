# expect: ok  (the mean over K; the launcher once read K as the size after the reduce axis)
op mean_k
in   x[M, K] : f32
out  y[M]    : like x
acc  f32
reduce K: s = sum(x)
y = s / K
