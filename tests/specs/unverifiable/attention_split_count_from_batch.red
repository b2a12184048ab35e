# expect: V201 at 16:1 contains "batch=1: 40 chunks of 25" "batch=2: 20 chunks of 50" "reads batch, cores"
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
split S fixed_count cdiv(cores, batch)   # more chunks when few sequences fill the GPU
