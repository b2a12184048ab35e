# The vector p-norm over one axis (or a run of axes), as torch.linalg.vector_norm(x, ord)
# for a finite ord > 0: (sum |x| ** ord) ** (1 / ord). A literal integer exponent is
# repeated multiplication; `ord` is a parameter, so `**` is exp(ord * log(.)) here (exact
# zeros stay zero). The launcher views the input as x[M, N, K] (as sum.red).
op vector_norm
in   x[M, N, K] : f32 | f16 | bf16
param ord = 2
out  y[M, K]    : like x
acc  f32
reduce N: s = sum(abs(x) ** ord)
y = s ** (1 / ord)
tile   N = 256, K = 32           # K: columns a cols program takes (H200, run 113 of docs/gpu_2026_11_28/README.md)
split  N fixed_size 4096
warps  4
cores  40
