"""Run 115: the stack walk's groups at a flat K, 8 leaves (gen115l8: the built modules with COLS_STACK_LEAVES 8)
against the built modules' 4, and torch; natural calls, bits compared."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {
    "sum": lambda x: torch.sum(x, 1), "mean": lambda x: torch.mean(x, 1), "nansum": lambda x: torch.nansum(x, 1),
    "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "amax": lambda x: torch.amax(x, 1),
}
FLAT = [(4096, 80, 64), (16384, 100, 16), (4096, 128, 64), (8192, 64, 32), (32768, 32, 16), (1024, 128, 32),
        (4096, 96, 8), (16384, 8, 64), (2048, 96, 64), (8192, 128, 16)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mods = {"new": importlib.import_module(f"generated.cuda.{name}"), "l8": importlib.import_module(f"gen115l8.cuda.{name}")}
    mod = mods["new"]
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in FLAT:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            outs = {k: getattr(m, name)(x, 1) for k, m in mods.items()}
            ok = all(torch.equal(o, outs["new"]) for o in outs.values())
            res = {"torch": t(lambda: OPS[name](x))}
            for k, m in mods.items():
                f = getattr(m, name)
                res[k] = t(lambda: f(x, 1))
            on = mod._cols_stack(M, N, K)
            walk = ("stack" if on else "tile") + ("/flat" if on and mod._cols_flat(M, N, K) else "")
            walk += f"/{mod._stack_leaves(M, N, K)}" if on else ""
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:12} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} new/l8 {res['new'] / res['l8']:.2f}"
                  + f" [{time.time() - t0:.0f}s]", flush=True)
