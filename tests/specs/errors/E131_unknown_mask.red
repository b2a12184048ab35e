# expect: E131 at 13:6
op attention
in   q[T, H, D] : bf16 | f32
in   k[S, G, D] : bf16 | f32
in   v[S, G, D] : bf16 | f32
out  o[T, H, D] : like q
param scale = rsqrt(D)
group H by G
reduce D: qk = sum(q * k)
s = qk * scale
reduce S: a = softmax_sum(s, v)
o = a
mask causl
