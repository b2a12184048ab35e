# expect: V201 at 15:18 contains "key blocks of 16" "key blocks of 1;" "reads T"
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
mask causal
tile T = 64, S = min(T, 64) * 1
split S fixed_size 256
