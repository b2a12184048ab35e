# expect: V201 at 16:1 contains "S=4096, T=4096, i=999: one chunk" "S=1000, T=1, i=0: 4 chunks of 250" "both see L=1000 keys"
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
tile T = 64, S = 64
split S fixed_count 4                     # 4 chunks of the key length: prefill and decode differ
