"""Is tl.maximum(propagate_nan=ALL) commutative bit for bit on this GPU? Every ordered pair of special values."""
import struct, torch, triton, triton.language as tl
@triton.jit
def k(a_ptr, b_ptr, o1_ptr, o2_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    a = tl.load(a_ptr + i, mask=m); b = tl.load(b_ptr + i, mask=m)
    tl.store(o1_ptr + i, tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL), mask=m)
    tl.store(o2_ptr + i, tl.maximum(b, a, propagate_nan=tl.PropagateNan.ALL), mask=m)
bits = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff,
        0x7fc00001, 0x00000001, 0x80000001, 0x007fffff, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff]
v = torch.tensor(bits, dtype=torch.int64).to(torch.int32) if False else torch.tensor([b - (1 << 32) if b >= 1 << 31 else b for b in bits], dtype=torch.int32)
a = v.repeat_interleave(len(bits)); b = v.repeat(len(bits))
g = torch.Generator().manual_seed(0)
r = torch.randn(1 << 20, generator=g).view(torch.int32)
r2 = torch.randn(1 << 20, generator=g).view(torch.int32)
a = torch.cat([a, r, r, -r.view(torch.float32).view(torch.int32)]); b = torch.cat([b, r2, r, r.view(torch.float32).neg().view(torch.int32)])
a, b = a.cuda().view(torch.float32), b.cuda().view(torch.float32)
for dt in (torch.float32, torch.bfloat16, torch.float16):
    x, y = a.to(dt), b.to(dt)
    if dt != torch.float32:  # the special bit patterns in 16 bits too
        x = torch.cat([x, torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan")], dtype=dt, device="cuda").repeat_interleave(5)])
        y = torch.cat([y, torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan")], dtype=dt, device="cuda").repeat(5)])
    o1, o2 = torch.empty_like(x), torch.empty_like(x)
    k[(triton.cdiv(x.numel(), 1024),)](x, y, o1, o2, x.numel(), BLOCK=1024)
    ib = {4: torch.int32, 2: torch.int16}[x.element_size()]
    same = torch.equal(o1.view(ib), o2.view(ib))
    bad = (o1.view(ib) != o2.view(ib)).nonzero().flatten()[:5].tolist()
    print(dt, "max(a, b) == max(b, a) bitwise over", x.numel(), "pairs:", same, bad)
    if dt == torch.float32:
        z = torch.tensor([0.0, -0.0], device="cuda"); o1, o2 = torch.empty(2, device="cuda"), torch.empty(2, device="cuda")
        k[(1,)](z, z.flip(0), o1, o2, 2, BLOCK=1024)
        print("max(+0, -0) bits", [hex(struct.unpack('<I', struct.pack('<f', t))[0]) for t in o1.tolist()], "max(-0, +0)", [hex(struct.unpack('<I', struct.pack('<f', t))[0]) for t in o2.tolist()])
