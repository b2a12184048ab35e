"""Run 118: the shipped modules of this change (generated/: the stack walk at rows of 129-256 on views of
COLS_STACK_LONGER_MIN columns or more) against commit 6262a13's modules (gen118prev) and torch; natural calls,
bits compared."""
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
FLAT = [(16384, 200, 16), (4096, 256, 64), (4096, 160, 64), (8192, 192, 32), (2048, 256, 16), (1024, 256, 64)]
PTS = [(256, 256, 4096), (1024, 256, 256), (64, 160, 2048), (128, 200, 1024), (256, 256, 512), (64, 192, 1024),
       (16, 256, 1024), (512, 256, 1024), (1024, 128, 256), (8, 256, 8192)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen118prev.cuda.{name}")
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
