# expect: E121 at 15:1
op attention_tuned
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
mask causal
tune cuda SPLIT_BELOW = 0
