# expect: E150 at 6:23
op scaled
in   x[B, L, C] : f32
out  y[B, C]    : like x
acc  f32
reduce L: s = sum(x * C)
y = s
