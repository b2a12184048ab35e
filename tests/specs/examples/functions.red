# Every element-wise function and operator of the language (redgen/functions.py), each in
# a reduction (element contexts) and again on the per-row totals (row contexts);
# tests/test_functions.py checks it against a float64 evaluation of the same IR.
op functions
in   x[M, N] : f32 | f16 | bf16
in   w[N]    : f32 | f16 | bf16
param p = 1.5
out  y[M, N]  : f32
out  a[M]     : f32
out  b[M]     : f32
out  c[M]     : f32
out  d[M]     : f32
out  e[M]     : f32
out  f[M]     : f32
out  g[M]     : f32
acc  f32
reduce N: s_tanh = sum(tanh(x) * w)
reduce N: s_sig  = sum(sigmoid(x) + silu(x))
reduce N: s_erf  = sum(erf(x) - x ** 3 + (abs(x) + 1) ** -2)
reduce N: s_pow  = sum(abs(x) ** p)
reduce N: count  = sum(x > 0)
reduce N: masked = sum(where(x >= 0.5, x, 0) + (x < -1) - (x <= -2) + (x == w) + (x != 0))
a = tanh(s_tanh / N) + sigmoid(s_tanh)
b = silu(s_sig / N) + erf(s_sig / N)
c = s_erf
d = s_pow ** (1 / p)
e = count
f = where(masked > 0, masked, -masked) ** 2
g = where(count >= N / 2, 1, 0)
y = where(x > 0, tanh(x), silu(x)) * sigmoid(x - count / N)
tile   N = 64
split  N fixed_size 256
warps  4
cores  40
