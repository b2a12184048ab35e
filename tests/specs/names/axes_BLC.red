# expect: ok  (a mean over L of x[B, L, C], divided by L, not by a batch axis)
op mean_blc
in   x[B, L, C] : f32 | bf16
out  y[B, C]    : like x
acc  f32
reduce L: s = sum(x)
y = s / L
tile   L = 64, C = 4
split  L fixed_size 128
