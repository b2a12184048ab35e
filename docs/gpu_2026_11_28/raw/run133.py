"""Run 133: the regime rule as shipped (bf16 natural, f32 against the old M table), the in-program
split's cost at large M, and a prototype of the split across programs at small M (bits == in-program)."""
import sys, time, math, torch, triton, triton.language as tl
from triton.testing import do_bench_cudagraph
sys.path.insert(0, ".")
from generated.cuda import matmul as mm
dev = "cuda" if torch.cuda.is_available() else "cpu"
CPU = dev == "cpu"
print(torch.cuda.get_device_name() if not CPU else "cpu", torch.__version__, triton.__version__, flush=True)
torch.backends.cuda.matmul.allow_tf32 = False
REP = 20
def t(fn):
    if CPU:
        s = time.time(); fn(); return time.time() - s
    return do_bench_cudagraph(fn, rep=REP)
OLD_HALF = ((16,16,64,1,4,5),(32,32,32,1,4,5),(64,64,32,1,4,4),(256,64,64,8,4,4),(1024,128,128,8,8,3),(None,128,256,8,8,3))
OLD_F32 = ((16,16,64,1,4,5),(32,32,32,1,4,4),(64,64,32,1,4,4),(256,64,64,8,4,3),(None,128,128,8,8,3))
NEW = dict(mm.REGIMES)
def with_regimes(regs, fn):
    save = mm.REGIMES; mm.REGIMES = regs
    try: return fn()
    finally: mm.REGIMES = save
def operands(layout, K, N, M, dt, seed):
    g = torch.Generator(device=dev).manual_seed(seed)
    b = torch.randn(K, N, device=dev, generator=g).to(dt) if layout == "kn" else torch.randn(N, K, device=dev, generator=g).to(dt).t()
    return torch.randn(M, K, device=dev, generator=g).to(dt), b

@triton.jit
def _partial(a_ptr, b_ptr, ws_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, CHUNKS, EMU: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    c = pid % CHUNKS
    tile = pid // CHUNKS
    tiles_n = tl.cdiv(N, BLOCK_N)
    pid_m = tile // tiles_n
    pid_n = tile % tiles_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    am = (rm % M).to(tl.int64)
    bn = (rn % N).to(tl.int64)
    rk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + am[:, None] * s_am
    b_base = b_ptr + bn[None, :] * s_bn
    c0 = c * CHUNK
    c1 = tl.minimum(c0 + CHUNK, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(c0, c1, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_base + kk[None, :] * s_ak, mask=kk[None, :] < c1, other=0.0)
        b = tl.load(b_base + kk[:, None] * s_bk, mask=kk[:, None] < c1, other=0.0)
        if EMU:
            a, b = a.to(tl.float32), b.to(tl.float32)
        acc = tl.dot(a, b, acc)
    off = c.to(tl.int64) * M * N + rm[:, None].to(tl.int64) * N + rn[None, :]
    tl.store(ws_ptr + off, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

@triton.jit
def _combine(ws_ptr, y_ptr, MN, CHUNKS, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for c in range(0, CHUNKS):
        total = total + tl.load(ws_ptr + c * MN + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, total.to(y_ptr.dtype.element_ty), mask=mask)

SMS = mm._programs(torch.device(dev))
def pick_split(M, N, dt, chunks):
    regs = mm.REGIMES[dt]
    top = next(r[0] for r in regs if r[0] is None or M <= r[0])
    for r in regs:
        if r[0] == top:
            pick = r
            if -(-M // r[1]) * -(-N // r[2]) * chunks >= mm.FILL * SMS:
                break
    return pick
def split_mm(a, b, chunk, reg=None):
    M, K = a.shape; N = b.shape[1]
    chunks = -(-K // chunk)
    _, bm, bn, gm, w, st = reg or pick_split(M, N, a.dtype, chunks)
    ws = torch.empty(chunks * M * N, device=a.device, dtype=torch.float32)
    y = torch.empty(M, N, device=a.device, dtype=a.dtype)
    tiles = -(-M // bm) * -(-N // bn)
    _partial[(tiles * chunks,)](a, b, ws, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), chunks,
                                EMU=CPU and a.dtype == torch.bfloat16, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=64, CHUNK=chunk,
                                num_warps=w, num_stages=st, enable_fp_fusion=False)
    _combine[(triton.cdiv(M * N, 1024),)](ws, y, M * N, chunks, BLOCK=1024, num_warps=4, enable_fp_fusion=False)
    return y
def in_prog(a, b, chunk):
    mm.SPLIT, mm.CHUNK = True, chunk
    try: return mm._run(a, b)
    finally: mm.SPLIT, mm.CHUNK = False, 1 << 30

bad = 0
SH = ((4096, 4096), (4096, 14336), (14336, 4096), (4096, 128256)) if not CPU else ((128, 96), (200, 40))
print("== A: the shipped rule, natural calls (bf16, both layouts) and f32 against the old M table", flush=True)
for dt, old in ((torch.bfloat16, OLD_HALF), (torch.float32, OLD_F32)):
    for layout in ("nk", "kn"):
        for K, N in SH:
            for M in ((1, 8, 16, 32, 64, 128, 256, 512, 2048) if not CPU else (1, 9, 70)):
                if dt == torch.float32 and (N == 128256 and M >= 512 or layout == "kn" and M in (16, 64)):
                    continue
                a, b = operands(layout, K, N, M, dt, K + N + M)
                new = mm.matmul(a, b)
                oldv = with_regimes({dt: old}, lambda: mm._run(a, b))
                eq = torch.equal(new, oldv); bad += not eq
                tt = t(lambda: torch.mm(a, b))
                tn = t(lambda: mm.matmul(a, b))
                to = with_regimes({dt: old}, lambda: t(lambda: mm._run(a, b)))
                r = mm._regime(1, M, N, dt, SMS)
                print(f"A {str(dt)[6:]:8s} {layout} K={K:5d} N={N:6d} M={M:5d} torch {tt*1e3:8.1f} old {to*1e3:8.1f} new {tn*1e3:8.1f} "
                      f"({r[1]}x{r[2]}) new/old {to/tn:5.2f} torch/new {tt/tn:5.2f} eq {eq}", flush=True)
print("== B: the in-program split's cost at large M (bf16 nk)", flush=True)
for K, N in SH[:3]:
    for M in ((512, 2048, 8192) if not CPU else (70,)):
        a, b = operands("nk", K, N, M, torch.bfloat16, 7)
        tn = t(lambda: mm._run(a, b))
        res = []
        for chunk in (512, 1024, 2048):
            ts = t(lambda: in_prog(a, b, chunk))
            res.append(f"chunk {chunk}: {ts*1e3:8.1f} ({tn/ts:4.2f})")
        print(f"B K={K:5d} N={N:6d} M={M:5d} none {tn*1e3:8.1f} | " + " | ".join(res), flush=True)
print("== C: the split across programs (bf16), bits == the in-program split", flush=True)
for layout in ("nk", "kn"):
    for K, N in SH:
        for M in ((1, 8, 16, 32, 64, 128, 256) if not CPU else (1, 9, 70)):
            if N == 128256 and M < 32:
                continue
            a, b = operands(layout, K, N, M, torch.bfloat16, 11 + M)
            tt = t(lambda: torch.mm(a, b))
            tn = t(lambda: mm._run(a, b))
            res = []
            for chunk in ((512, 1024, 2048) if not CPU else (64, 128)):
                ref = in_prog(a, b, chunk)
                got = split_mm(a, b, chunk)
                eq = torch.equal(got, ref); bad += not eq
                # and another tile: the bits stay
                eq2 = torch.equal(split_mm(a, b, chunk, (None, 64, 64, 8, 4, 4)), ref); bad += not eq2
                ts = t(lambda: split_mm(a, b, chunk))
                r = pick_split(M, N, a.dtype, -(-K // chunk))
                res.append(f"{chunk}: {ts*1e3:7.1f} ({r[1]}x{r[2]}) {eq and eq2}")
            print(f"C {layout} K={K:5d} N={N:6d} M={M:5d} torch {tt*1e3:8.1f} none {tn*1e3:8.1f} ({tt/tn:4.2f}) | " + " | ".join(res), flush=True)
print("bits differ:", bad, flush=True)
