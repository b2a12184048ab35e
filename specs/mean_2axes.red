# mean over two non-adjacent axes of x[A, N1, B, N2] (torch.mean(x, dim=(1, 3))).
# The reduce axes are merged into one axis N of N1*N2 positions, position n1*N2 + n2:
# the combine order is that of `mean` over one axis of N elements (lanes, chunks at
# absolute merged positions, tree), a function of N1*N2 alone. The cuda kernels walk
# (n1, n2) in place (no copy); ascend's launcher copies the reduce axes together,
# innermost, as it does for every reduce axis (docs/language.md).
op mean_2axes
in   x[A, N1, B, N2] : f32 | f16 | bf16
out  y[A, B]         : like x
acc  f32
reduce N1, N2 as N: s = sum(x)
y = s / N
tile   N = 256, B = 16
split  N fixed_size 4096
warps  4
cores  40
