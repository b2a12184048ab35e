# expect: ok  (spec names that look like the emitter's own: in_0, p_0, out_0, r_0, v_0)
op mangled
in   p_0[M, N, K] : f32
in   in_0[N] : f32
param out_0 = 3.0
out  r_0[M, K] : like p_0
acc  f32
reduce N: v_0 = sum(p_0 * in_0)
r_0 = v_0 + out_0
tile N = 32
split N fixed_count 3
