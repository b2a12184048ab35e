"""Run 114: the flat columns' mask given its constancy (tl.max_constancy: a bf16 column pair a load),
nansum's loads widened through _rg_f32 in every walk (gen114new), and COLS_SHORT_BLOCK for nansum and
vector_norm (gen114sb), against HEAD 9e49cfb's modules (gen114prev) and torch; natural calls, bits compared."""
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
        (2048, 128, 8), (4096, 96, 8), (65536, 8, 2), (16384, 8, 64)]
CTRL = [(1024, 128, 1024), (64, 128, 1024), (192, 100, 1000)]
SB = [(256, 256, 512), (256, 256, 4096), (64, 512, 256), (128, 300, 128), (1024, 200, 64), (16, 512, 1024),
      (4096, 256, 64)]
ROWS = [(256, 4096, 1), (4096, 4096, 1), (64, 32768, 1), (128, 96, 128)]
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
t0 = time.time()
for name in sys.argv[1:]:
    mods = {"prev": importlib.import_module(f"gen114prev.cuda.{name}"), "new": importlib.import_module(f"gen114new.cuda.{name}")}
    sb = name in ("nansum", "vector_norm")
    if sb:
        mods["sb"] = importlib.import_module(f"gen114sb.cuda.{name}")
    mod = mods["new"]
    free = name.startswith("arg")
    pts = FLAT + CTRL + (SB + ROWS if sb else [])
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in pts:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            if name == "nansum":
                x[x > 1.5] = float("nan")
            xs = x[:, :, 0] if K == 1 else x
            outs = {k: getattr(m, name)(xs, 1) for k, m in mods.items()}
            ok = all(torch.equal(o, outs["prev"]) for o in outs.values())
            res = {"torch": t(lambda: OPS[name](xs))}
            for k, m in mods.items():
                f = getattr(m, name)
                res[k] = t(lambda: f(xs, 1))
            on = mod._free_cols(M, N, K) if free else mod._cols_stack(M, N, K) if K > 1 else 0
            walk = ("rows" if K == 1 else ("free" + str(on) if on else "tile") if free else ("stack" if on else "tile"))
            walk += "/flat" if on and mod._cols_flat(M, N, K) else ""
            best = min(v for k, v in res.items() if k != "torch")
            gbs = x.numel() * x.element_size() / (res["new"] * 1e-6) / 1e9
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:10} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f}"
                  + (f" new/sb {res['new'] / res['sb']:.2f}" if sb else "")
                  + f" read {gbs:.0f} GB/s [{time.time() - t0:.0f}s]", flush=True)
