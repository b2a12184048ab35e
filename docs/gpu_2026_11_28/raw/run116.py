"""Run 116: the shipped modules of this change (generated/: the flat columns' mask constancy, nansum's cols walks
widened, COLS_SHORT_BLOCK for every tl.split-tree op, COLS_STACK_FLAT_LEAVES) against HEAD 9e49cfb's modules
(gen114prev) and torch; natural calls, bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {
    "sum": lambda x: torch.sum(x, 1), "mean": lambda x: torch.mean(x, 1), "nansum": lambda x: torch.nansum(x, 1),
    "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "amax": lambda x: torch.amax(x, 1),
    "amin": lambda x: torch.amin(x, 1), "argmax": lambda x: torch.argmax(x, 1), "argmin": lambda x: torch.argmin(x, 1),
}
FLAT = [(4096, 80, 64), (16384, 100, 16), (4096, 128, 64), (8192, 64, 32), (32768, 32, 16), (1024, 128, 32),
        (2048, 96, 64), (8192, 128, 16), (4096, 96, 8), (65536, 8, 2), (16384, 8, 64)]
PTS = [(1024, 128, 1024), (128, 128, 1024), (64, 128, 1024), (192, 100, 1000), (4096, 64, 128), (512, 32, 128),
       (8, 96, 4096), (256, 256, 512), (256, 256, 4096), (64, 512, 256), (16, 512, 1024), (4096, 256, 64),
       (8, 4096, 512), (16, 2048, 2048), (4096, 4096, 1), (64, 32768, 1)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen114prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    free = name.startswith("arg")
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in FLAT + PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            if name == "nansum":
                x[x > 1.5] = float("nan")
            xs = x[:, :, 0] if K == 1 else x
            ok = torch.equal(fn(xs, 1), fp(xs, 1))
            res = {"torch": t(lambda: OPS[name](xs)), "prev": t(lambda: fp(xs, 1)), "new": t(lambda: fn(xs, 1))}
            on = mod._free_cols(M, N, K) if free else mod._cols_stack(M, N, K) if K > 1 else 0
            walk = ("rows" if K == 1 else ("free" + str(on) if on else "tile") if free else ("stack" if on else "tile"))
            walk += "/flat" if on and mod._cols_flat(M, N, K) else ""
            walk += f"/{mod._stack_leaves(M, N, K)}" if on and not free else ""
            gbs = x.numel() * x.element_size() / (res["new"] * 1e-6) / 1e9
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:12} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f} read {gbs:.0f} GB/s"
                  f" [{time.time() - t0:.0f}s]", flush=True)
