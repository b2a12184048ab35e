"""Run 193b: what the explicit lane tree costs a latency-bound row program. One program a row sums
N bf16 elements (lane j: elements j, j + 256, ... in order), then its 256 lanes meet by:
tl.sum (layout-shaped, not ours), the pairwise tree as tl.reduce of pairs (PAIRS), as tl.split
(the shipped forms), or pairs (j, j + L/2) at each level (a transposed tree: other bits)."""
import sys
import torch
import triton
import triton.language as tl
sys.path.insert(0, "benchmarks")
from gpu_run import graph_ms


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _k(x_ptr, y_ptr, N: tl.constexpr, LANES: tl.constexpr, LOG2: tl.constexpr, MODE: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, LANES)
    acc = tl.zeros([1, LANES], tl.float32)
    for n0 in tl.static_range(0, N, LANES):
        acc += tl.load(x_ptr + row * N + n0 + lanes)[None, :].to(tl.float32)
    v = acc
    if MODE == 0:
        t = tl.sum(v, 1)
    elif MODE == 1:
        for i in tl.static_range(LOG2):
            v = tl.reduce(tl.reshape(v, [1, LANES >> (i + 1), 2]), 2, _add)
        t = tl.reshape(v, [1])
    elif MODE == 2:
        for i in tl.static_range(LOG2):
            a, b = tl.split(tl.reshape(v, [1, LANES >> (i + 1), 2]))
            v = a + b
        t = tl.reshape(v, [1])
    elif MODE == 3:
        for i in tl.static_range(LOG2):
            v = tl.reduce(tl.reshape(v, [1, 2, LANES >> (i + 1)]), 1, _add)
        t = tl.reshape(v, [1])
    else:
        for i in tl.static_range(LOG2):
            a, b = tl.split(tl.permute(tl.reshape(v, [1, 2, LANES >> (i + 1)]), [0, 2, 1]))
            v = a + b
        t = tl.reshape(v, [1])
    y = tl.load(x_ptr + row * N + lanes).to(tl.float32) * t
    tl.store(y_ptr + row * N + lanes, y.to(y_ptr.dtype.element_ty))


NAMES = ["tl.sum", "pairs reduce", "pairs split", "halves reduce", "halves split"]
print(f"device: {torch.cuda.get_device_name()}")
for N in (4096, 8192):
    for M in (1, 256):
        x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
        y = torch.empty_like(x)
        line = [f"bf16 {M}x{N}:"]
        for w in (2, 4, 8):
            for mode in range(5):
                f = lambda: _k[(M,)](x, y, N=N, LANES=256, LOG2=8, MODE=mode, num_warps=w)
                f()
                line.append(f"w{w} {NAMES[mode]} {graph_ms(f) * 1e3:.2f}")
        print("\n  ".join(line))
