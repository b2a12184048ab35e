# Per-token fp8 quantization (the e5m2 variant of fp8_quant):
#   scale = max(absmax(row) / 57344, 1 / (57344 * 512))     one f32 scale per row (token)
#   q     = fp8_e5m2(clamp(x / scale, -57344, 57344))        the row quantized
# The cast rounds as torch's .to(torch.float8_e5m2) (to nearest even; the clamp keeps it
# from overflowing, which torch turns into inf): q and scale are bit for bit what torch
# computes in float32, x.float() / scale[:, None] clamped and cast, under the interpreter;
# on a CUDA GPU `/` is Triton's div.full.f32 (within 2 ulp), so a quotient that close to an
# fp8 rounding midpoint may round to its neighbour (docs/ops.md). A NaN in the row makes
# the scale NaN. The launcher views the input as x[M, N]: N = the quantized dim(s) (the
# hidden size), M = every dim before them. See fp8_quant.red.
op fp8_quant_e5m2
in   x[M, N] : f32 | f16 | bf16
param fp8_max = 57344
param min_scale = 1 / (57344 * 512)
out  q[M, N]   : f8e5m2
out  scale[M]  : f32
acc  f32
reduce N: amax = max(abs(x))
s = max(amax / fp8_max, min_scale)
q = min(max(x / s, -fp8_max), fp8_max)
scale = s
tile   N = 256
split  N fixed_size 4096
warps  4
cores  40
# The L2 prefetch of the next wave's rows up to rows of eight chunks (redgen/plan.py, ROW_PREFETCH_MAX,
# seven): writing a byte an element, this op gained there on an H100 where the others lost (run 255 in
# docs/gpu_2026_12_08/README.md, bits equal: fp8_quant bf16 4096 x 32000 184.2 -> 172.6 us; the e5m2
# variant runs the same kernel but its rounding, not timed).
tune cuda ROW_PREFETCH_MAX = 32768
