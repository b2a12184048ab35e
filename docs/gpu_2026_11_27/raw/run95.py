"""Run 95: the cols kernels at rows of at most 128 (TILE lanes) with column blocks sized to the tile:
BLOCK = clamp(E // TILE, the shipped block, 256) columns for E in ELEMS (a launcher wrapper over the
shipped modules' _schedule: a kernel shape only), bits compared with the shipped block; torch too."""
import sys, importlib
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

OPS = {
    "argmax": lambda x: torch.argmax(x, dim=1), "var_held": lambda x: torch.var(x, dim=1),
    "softmax_held": lambda x: torch.softmax(x, dim=1), "amax": lambda x: torch.amax(x, dim=1),
    "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "sum": lambda x: torch.sum(x, dim=1),
}
PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128)]
ELEMS = (1024, 2048, 4096)
CAP = 256


def patched(mod, elems):
    own = mod._schedule

    def sched(M, N, K):
        r = list(own(M, N, K))
        if r[2] == "cols" and 0 < N <= mod.SHORT_TILE_MAX:
            block = max(r[3], min(CAP, elems // mod._tile(N), 1 << (K - 1).bit_length()))
            r[3], r[4] = block, M * -(-K // block)
        return tuple(r)
    return sched


only = sys.argv[1:]
print(torch.cuda.get_device_name(), flush=True)
for name, tcall in OPS.items():
    if only and name not in only:
        continue
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn, own = getattr(mod, name), mod._schedule
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            ref = fn(x, 1)
            res = {"torch": t(lambda: tcall(x)), "shipped": t(lambda: fn(x, 1))}
            ok = True
            for e in ELEMS:
                mod._schedule = patched(mod, e)
                mod._PLANS.clear()  # a recorded signature replays its launches: record them again
                ok &= torch.equal(fn(x, 1), ref)
                res[f"e{e}"] = t(lambda: fn(x, 1))
                mod._schedule = own
                mod._PLANS.clear()
            print(f"{name:12} {str(dt)[6:]:8} {M} x {N} x {K}: bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()), flush=True)
