"""Run 103: the shipped modules of this change (generated/: the stack in groups of leaves, at rows up to
128, vector_norm among them; argmax/argmin's order-free walk at longer rows; both walks' columns flat
across batch rows at a short K) against the modules before it (gen103prev: HEAD's) and torch, natural
calls, bits compared. "alt", to place the rule's thresholds: at rows of 65-128 and argmax's longer rows
the other walk; at a K below the walk's (COLS_STACK_K, FREE_COLS_K) the walk forced (flat); where the
natural call is flat, the block cut to K (COLS_FLAT_BELOW 0)."""
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
SMALLK = [(16384, 8, 64), (2048, 32, 16), (8192, 16, 8), (4096, 64, 4), (65536, 8, 2), (1024, 128, 32), (512, 32, 128)]
PTS = [(1024, 128, 1024), (8, 96, 4096), (256, 100, 1000), (64, 128, 1024), (4096, 64, 512), (16, 32, 8192), (2048, 8, 1024), (4096, 16, 256), (4096, 64, 128),
       (128, 128, 1024), (192, 100, 1000), (32, 96, 8192)] + SMALLK
SHORT = [(1024, 128, 1024), (256, 100, 1000), (128, 128, 1024), (4096, 64, 512), (4096, 16, 256)] + SMALLK
LONG = [(64, 512, 1024), (1024, 512, 64), (128, 300, 512), (256, 1024, 256), (16, 4096, 1024), (32, 2048, 2048),
        (64, 2048, 1024), (32, 1024, 2048), (512, 512, 128), (2048, 8, 1024), (4096, 64, 512)]
FULL = ("sum", "vector_norm", "amax")
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen103prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    free = name.startswith("arg")
    pts = LONG + SMALLK if name == "argmax" else LONG[:2] + LONG[9:] + SMALLK if free else PTS if name in FULL else SHORT
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in pts:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            new = fn(x, 1)
            ok = torch.equal(new, fp(x, 1))
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            on = mod._free_cols(M, N, K) if free else mod._cols_stack(M, N, K)
            kn = None
            if free and N > 256:
                kn = dict(FREE_COLS_LONG_MIN=1 << 62) if on else dict(FREE_COLS_LONG_MIN=0, FREE_COLS_LONG_K=0)
            elif not free and 64 < N <= 128:
                kn = dict(COLS_STACK_LONG_MIN=1 << 62) if on else dict(COLS_STACK_LONG_MIN=0, COLS_STACK_K=0)
            elif not on and K < (mod.FREE_COLS_K if free else mod.COLS_STACK_K):
                kn = dict(FREE_COLS_K=0, FREE_COLS_MIN=0) if free else dict(COLS_STACK_K=0, COLS_STACK_MIN=0)
            elif on and mod._cols_flat(M, N, K):
                kn = dict(COLS_FLAT_BELOW=0)
            if kn:
                own = {k: getattr(mod, k) for k in kn}
                for k, w in kn.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), new)
                res["alt"] = t(lambda: fn(x, 1))
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            gbs = x.numel() * x.element_size() / (res["new"] * 1e-6) / 1e9
            walk = ("free" + str(on) if on else "tile") if free else ("stack" if on else "tile")
            walk += "/flat" if on and mod._cols_flat(M, N, K) else ""
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):16} {walk:10} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f} read {gbs:.0f} GB/s"
                  f" [{time.time() - t0:.0f}s]", flush=True)
