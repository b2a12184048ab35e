"""Prototype: sum's cols kernel at rows of at most 128 walked one lane a column, the TILE-lane pairwise
tree built leaf by leaf in each thread (a binary-counter stack of subtree roots, unrolled), then the
256-lane tree's pad fold, as generated/cuda/sum.py's _k_cols_fused does. Bits vs the shipped module."""
import sys, importlib
import torch, triton
import triton.language as tl


@triton.jit
def _sum(a0, b0):
    return a0 + b0


@triton.jit
def _push(s0, s1, s2, s3, s4, s5, s6, cur, J: tl.constexpr):
    # leaf J of the pairwise tree: combine with the stacked roots its trailing one bits name
    if J % 2 == 1:
        cur = _sum(s0, cur)
        if J % 4 == 3:
            cur = _sum(s1, cur)
            if J % 8 == 7:
                cur = _sum(s2, cur)
                if J % 16 == 15:
                    cur = _sum(s3, cur)
                    if J % 32 == 31:
                        cur = _sum(s4, cur)
                        if J % 64 == 63:
                            cur = _sum(s5, cur)
                            if J % 128 == 127:
                                cur = _sum(s6, cur)
                            else:
                                s6 = cur
                        else:
                            s5 = cur
                    else:
                        s4 = cur
                else:
                    s3 = cur
            else:
                s2 = cur
        else:
            s1 = cur
    else:
        s0 = cur
    return s0, s1, s2, s3, s4, s5, s6, cur


@triton.jit
def k_serial(x_ptr, s_m, s_n, s_k, out_ptr, s_om, s_ok, N, K, BLOCK: tl.constexpr, TILE: tl.constexpr,
             LOG2_TILE: tl.constexpr, LANES: tl.constexpr, LOG2_LANES: tl.constexpr, ALIGN: tl.constexpr):
    if ALIGN > 1:
        K = K // ALIGN * ALIGN
        s_m = s_m // ALIGN * ALIGN
        s_n = s_n // ALIGN * ALIGN
        s_om = s_om // ALIGN * ALIGN
    pid = tl.program_id(0)
    kb = tl.cdiv(K, BLOCK)
    m64 = (pid // kb).to(tl.int64)
    ks = (pid % kb) * BLOCK + tl.arange(0, BLOCK)
    row_ok = ks < K
    at = x_ptr + m64 * s_m + ks.to(tl.int64) * s_k
    z = tl.full([BLOCK], 0.0, tl.float32)
    s0 = z
    s1 = z
    s2 = z
    s3 = z
    s4 = z
    s5 = z
    s6 = z
    cur = z
    for j in tl.static_range(TILE):
        ok = row_ok & (tl.full([BLOCK], j, tl.int32) < N)
        v = tl.load(at + j * s_n, mask=ok, other=0.0).to(tl.float32)
        cur = _sum(tl.full([BLOCK], 0.0, tl.float32), tl.where(ok, v, 0.0))
        s0, s1, s2, s3, s4, s5, s6, cur = _push(s0, s1, s2, s3, s4, s5, s6, cur, j)
    part = cur
    if TILE < LANES:
        pad = _sum(tl.full([BLOCK], 0.0, tl.float32), tl.full([BLOCK], 0.0, tl.float32))
        for i in tl.static_range(LOG2_TILE):
            pad = _sum(pad, pad)
        for i in tl.static_range(LOG2_LANES - LOG2_TILE):
            part = _sum(part, pad)
            pad = _sum(pad, pad)
    tot = _sum(tl.full([BLOCK], 0.0, tl.float32), part)
    tl.store(out_ptr + m64 * s_om + ks.to(tl.int64) * s_ok, tot.to(out_ptr.dtype.element_ty), mask=row_ok)


def serial_sum(x, block=256, warps=4):
    M, N, K = x.shape
    out = torch.empty(M, K, dtype=x.dtype, device=x.device)
    tile = max(8, 1 << (N - 1).bit_length())
    import math
    align = min(16, (g := math.gcd(K, x.stride(0), x.stride(1), out.stride(0))) & -g) if True else 1
    b = min(block, 1 << (K - 1).bit_length())
    k_serial[(M * -(-K // b),)](x, *x.stride(), out, *out.stride(), N, K, BLOCK=b, TILE=tile,
                                LOG2_TILE=tile.bit_length() - 1, LANES=256, LOG2_LANES=8, ALIGN=align,
                                num_warps=warps, enable_fp_fusion=False)
    return out


if __name__ == "__main__":
    mod = importlib.import_module("generated.cuda.sum")
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    for n in (1, 5, 8, 9, 17, 33, 64, 65, 100, 128):
        x = torch.randn(3, n, 5, device=dev)
        x[0, n // 2, 1] = -0.0
        a, b = serial_sum(x), mod.sum(x, 1)
        print(n, torch.equal(a.view(torch.int32), b.view(torch.int32)), flush=True)
