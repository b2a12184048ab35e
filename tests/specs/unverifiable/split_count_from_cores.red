# expect: V201 at 10:1 contains "depends on cores" "cores=40: 40 chunks of 103; cores=48: 48 chunks of 86" "property of the device"
# one chunk per core: invariant on one device, but the core budget is the device's, so the same op reduces in another order on another device (and under cores auto).
op mean
in   x[M, N, K] : f32 | f16 | bf16
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(x)
y = s / N
tile   N = 512, K = 16
split  N fixed_count cores
warps  4
cores  40
