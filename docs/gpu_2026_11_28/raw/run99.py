"""Run 99: argmax/argmin's cols kernels walking a row of at most LANES one lane a column (TILE 1, this
change: generated/) against the modules before it (gen98, HEAD), torch, and the one-lane walk forced
(FREE_COLS_MIN = FREE_COLS_K = 0) where the rule keeps the TILE walk. Bits: new vs prev vs forced vs torch."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

# rule points (run 98's), then the rule's edges: short K, few columns, rows past LANES
PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128), (256, 256, 4096), (64, 512, 1024),
       (4096, 64, 128), (16384, 8, 64), (2048, 32, 16), (16, 128, 1024), (8, 64, 2048), (4, 200, 2048),
       (1024, 2, 1024), (64, 1024, 4096), (4, 8192, 4096)]
print(torch.cuda.get_device_name(), flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
for name in sys.argv[1:]:
    mod = importlib.import_module(f"generated.cuda.{name}")
    prev = importlib.import_module(f"gen98.cuda.{name}")
    fn, fp, tf = getattr(mod, name), getattr(prev, name), getattr(torch, name)
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            new = fn(x, 1)
            ok = torch.equal(new, fp(x, 1)) and torch.equal(new, tf(x, 1))
            res = {"torch": t(lambda: tf(x, 1)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            free = mod._free_cols(M, N, K)
            if not free and N <= mod.LANES:
                mod.FREE_COLS_MIN, mod.FREE_COLS_K = 0, 0
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), new)
                res["forced"] = t(lambda: fn(x, 1))
                mod.FREE_COLS_MIN, mod.FREE_COLS_K = 32768, 256
                mod._PLANS.clear()
            gbs = x.numel() * x.element_size() / (res["new"] * 1e-6) / 1e9
            print(f"{name:7} {str(dt)[6:]:8} {M} x {N} x {K}: {'free' if free else 'tile'} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()) + f" | torch/new {res['torch'] / res['new']:.2f} read {gbs:.0f} GB/s",
                  flush=True)
