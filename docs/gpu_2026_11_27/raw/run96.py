"""Run 96: softmax_held and log_softmax_held's cols kernels at rows of at most 128 with the output
sweep in TILE lanes too (_scratch/gen96) against the shipped modules (generated/, a558064) and
torch, at the shipped column block and at blocks sized to the tile (max(32, E // TILE): a wrapper
over _schedule, a kernel shape only); bits compared with the shipped module at every variant."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

OPS = {"softmax_held": lambda x: torch.softmax(x, dim=1), "log_softmax_held": lambda x: torch.log_softmax(x, dim=1)}
PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128), (1024, 16, 4096)]
ELEMS = (1024, 2048, 4096)


def patched(mod, own, elems):
    def sched(M, N, K):
        r = list(own(M, N, K))
        if r[2] == "cols" and 0 < N <= mod.SHORT_TILE_MAX:
            block = max(r[3], min(elems // mod._tile(N), 1 << (K - 1).bit_length()))
            r[3], r[4] = block, M * -(-K // block)
        return tuple(r)
    return sched


print(torch.cuda.get_device_name(), flush=True)
for name, tcall in OPS.items():
    fo = getattr(importlib.import_module(f"generated.cuda.{name}"), name)
    mod = importlib.import_module(f"gen96.cuda.{name}")
    fn, own = getattr(mod, name), mod._schedule
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            ref = fo(x, 1)
            ok = torch.equal(fn(x, 1), ref)
            res = {"torch": t(lambda: tcall(x)), "shipped": t(lambda: fo(x, 1)), "sweep_tile": t(lambda: fn(x, 1))}
            for e in ELEMS:
                mod._schedule = patched(mod, own, e)
                mod._PLANS.clear()  # a recorded signature replays its launches: record them again
                ok &= torch.equal(fn(x, 1), ref)
                res[f"e{e}"] = t(lambda: fn(x, 1))
                mod._schedule = own
                mod._PLANS.clear()
            print(f"{name:16} {str(dt)[6:]:8} {M} x {N} x {K}: bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()), flush=True)
