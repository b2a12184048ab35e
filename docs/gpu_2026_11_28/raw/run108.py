"""Run 108: the shipped modules of this change (generated/: vector_norm's power a constexpr form of ord,
|x| ** 2 as x * x; the cols walks from FREE_COLS_FLAT_MIN / COLS_STACK_FLAT_MIN columns at a short K)
against the modules before it (gen108prev: HEAD c455893's) and torch, natural calls, bits compared."""
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
SMALLK = [(65536, 8, 2), (8192, 16, 8), (2048, 32, 16), (4096, 64, 4), (16384, 8, 64), (1024, 128, 32),
          (4096, 96, 8), (4096, 128, 8), (2048, 64, 8), (2048, 128, 8)]
PTS = [(1024, 128, 1024), (128, 128, 1024), (64, 128, 1024), (96, 96, 1024), (192, 100, 1000), (4096, 64, 128),
       (512, 32, 128), (8, 96, 4096)] + SMALLK
ARG = [(64, 512, 1024), (1024, 512, 64), (128, 300, 512), (512, 32, 128)] + SMALLK
EXTRA = {"vector_norm": [(16, 2048, 2048), (4096, 4096, 1), (64, 32768, 1)]}
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen108prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    free = name.startswith("arg")
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in (ARG if free else PTS) + EXTRA.get(name, []):
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            ok = torch.equal(fn(x, 1), fp(x, 1))
            if name == "vector_norm":
                for o in (1, 3):
                    ok &= torch.equal(fn(x, 1, ord=o), fp(x, 1, ord=o))
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            on = mod._free_cols(M, N, K) if free else mod._cols_stack(M, N, K) if K > 1 else 0
            walk = ("rows" if K == 1 else ("free" + str(on) if on else "tile") if free else ("stack" if on else "tile"))
            walk += "/flat" if on and mod._cols_flat(M, N, K) else ""
            gbs = x.numel() * x.element_size() / (res["new"] * 1e-6) / 1e9
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:10} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f} read {gbs:.0f} GB/s"
                  f" [{time.time() - t0:.0f}s]", flush=True)
