# expect: V201 at 16:1 contains "cores=40: 4 chunks of 320" "cores=132: one chunk"
op attention
in   q[T, H, D] : bf16 | f16 | f32
in   k[S, G, D] : bf16 | f16 | f32
in   v[S, G, D] : bf16 | f16 | f32
out  o[T, H, D] : like q
acc  f32
param scale = rsqrt(D)
group H by G
reduce D: qk = sum(q * k)
s = qk * scale
reduce S: a = softmax_sum(s, v)
o = a
mask none
tile T = 64, S = 64
split S fixed_size cores * 8               # the chunk follows the device
