"""Run 134 (extra): natural call vs the launcher's body at M = 2048 (run 133 saw 444 vs 400 us);
the M <= 32 classes added after run 133, against the previous tables."""
import sys, time, torch
from triton.testing import do_bench_cudagraph
sys.path.insert(0, ".")
from generated.cuda import matmul as mm
torch.backends.cuda.matmul.allow_tf32 = False
print(torch.cuda.get_device_name(), flush=True)
def t(fn): return do_bench_cudagraph(fn, rep=30)
for layout in ("nk", "kn"):
    for K, N in ((4096, 14336), (14336, 4096)):
        a = torch.randn(2048, K, device="cuda").bfloat16()
        b = torch.randn(K, N, device="cuda").bfloat16() if layout == "kn" else torch.randn(N, K, device="cuda").bfloat16().t()
        xs = []
        for _ in range(3):
            xs.append((t(lambda: torch.mm(a, b)), t(lambda: mm.matmul(a, b)), t(lambda: mm._run(a, b))))
        print(f"M=2048 {layout} K={K} N={N}: torch / natural / _run (us): " + "  ".join(f"{x[0]*1e3:.1f}/{x[1]*1e3:.1f}/{x[2]*1e3:.1f}" for x in xs), flush=True)
PREV = {torch.bfloat16: ((16,16,64,1,4,5),(32,32,32,1,4,5),(64,64,32,1,4,4),(256,64,64,8,4,4),(1024,128,128,8,8,3),(None,128,256,8,8,3)),
        torch.float32: ((16,16,64,1,4,5),(32,32,32,1,4,4),(64,64,32,1,4,4),(256,64,64,8,4,3),(None,128,128,8,8,3))}
for dt in (torch.bfloat16, torch.float32):
    for layout in ("nk", "kn"):
        for K, N in ((4096, 4096), (4096, 14336), (14336, 4096)):
            for M in (17, 24, 32):
                a = torch.randn(M, K, device="cuda").to(dt)
                b = torch.randn(K, N, device="cuda").to(dt) if layout == "kn" else torch.randn(N, K, device="cuda").to(dt).t()
                new = mm.matmul(a, b)
                save = mm.REGIMES; mm.REGIMES = {dt: PREV[dt]}
                try:
                    old = mm._run(a, b); to = t(lambda: mm._run(a, b))
                finally:
                    mm.REGIMES = save
                tt, tn = t(lambda: torch.mm(a, b)), t(lambda: mm.matmul(a, b))
                r = mm._regime(1, M, N, dt, mm._programs(a.device))
                print(f"M<=32 {str(dt)[6:]} {layout} K={K} N={N} M={M}: torch {tt*1e3:.1f} old {to*1e3:.1f} new {tn*1e3:.1f} ({r[1]}x{r[2]}) "
                      f"new/old {to/tn:.2f} torch/new {tt/tn:.2f} eq {torch.equal(new, old)}", flush=True)
