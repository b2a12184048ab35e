"""Run 101 (run100.py with gen101 = the stack walk v2 as new, generated/ = shipped as prev):
Run 100: the one-read ops' cols kernels at rows of at most 128 building their lane tree leaf by leaf,
one lane a column (STACK, this change: generated/), and argmax/argmin's one-lane walk from K = 64,
against the modules before the change (gen98: HEAD of the session), torch, and the stack forced where
the rule keeps the TILE walk. Bits: new vs prev (vs forced); every point compared bit for bit."""
import sys, importlib
sys.path.insert(0, "_scratch")
import torch, triton
import torch.nn.functional as F

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

def tgt(x):
    M, N, K = x.shape
    return (torch.arange(M * K, device=x.device).reshape(M, K) * 7) % N

OPS = {
    "sum": (lambda f, x: f(x, 1), lambda x: torch.sum(x, 1)),
    "mean": (lambda f, x: f(x, 1), lambda x: torch.mean(x, 1)),
    "nansum": (lambda f, x: f(x, 1), lambda x: torch.nansum(x, 1)),
    "vector_norm": (lambda f, x: f(x, 1), lambda x: torch.linalg.vector_norm(x, dim=1)),
    "amax": (lambda f, x: f(x, 1), lambda x: torch.amax(x, 1)),
    "amin": (lambda f, x: f(x, 1), lambda x: torch.amin(x, 1)),
    "nll_loss": (lambda f, x: f(x, tgt(x), 1), lambda x: F.nll_loss(x, tgt(x), reduction="none")),
    "argmax": (lambda f, x: f(x, 1), lambda x: torch.argmax(x, 1)),
    "argmin": (lambda f, x: f(x, 1), lambda x: torch.argmin(x, 1)),
}
PTS = [(4096, 64, 512), (256, 100, 1000), (1024, 128, 1024), (16, 32, 8192), (2048, 8, 1024), (8, 96, 4096),
       (32, 128, 128), (4096, 16, 256), (64, 128, 1024), (4096, 64, 128), (16384, 8, 64), (16, 128, 1024)]
FULL = ("sum", "vector_norm", "amax", "argmax")  # every point; the others at the first five
print(torch.cuda.get_device_name(), flush=True)
a, b = torch.empty(1 << 28, device="cuda"), torch.empty(1 << 28, device="cuda")
print(f"copy bandwidth (read + write): {2 * a.numel() * 4 / (t(lambda: b.copy_(a)) * 1e-6) / 1e9:.0f} GB/s", flush=True)
del a, b
for name in sys.argv[1:]:
    call, tcall = OPS[name]
    mod, prev = importlib.import_module(f"gen101.cuda.{name}"), importlib.import_module(f"generated.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    stack = hasattr(mod, "_cols_stack")
    rule = mod._cols_stack if stack else mod._free_cols
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS if name in FULL else PTS[:5]:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            new = call(fn, x)
            ok = torch.equal(new, call(fp, x))
            try:
                tt = t(lambda: tcall(x))
            except Exception:  # noqa: BLE001 (a torch op without this dtype: no ratio)
                tt = float("nan")
            res = {"torch": tt, "prev": t(lambda: call(fp, x)), "new": t(lambda: call(fn, x))}
            on = rule(M, N, K)
            if not on and N <= 128:
                knobs = ("COLS_STACK_MIN", "COLS_STACK_K") if stack else ("FREE_COLS_MIN", "FREE_COLS_K")
                own = [getattr(mod, k) for k in knobs]
                for k in knobs:
                    setattr(mod, k, 0)
                mod._PLANS.clear()
                ok &= torch.equal(call(fn, x), new)
                res["forced"] = t(lambda: call(fn, x))
                for k, v in zip(knobs, own):
                    setattr(mod, k, v)
                mod._PLANS.clear()
            gbs = x.numel() * x.element_size() / (res["new"] * 1e-6) / 1e9
            print(f"{name:11} {str(dt)[6:]:8} {M} x {N} x {K}: {'one-lane' if on else 'tile'} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | torch/new {res['torch'] / res['new']:.2f} prev/new {res['prev'] / res['new']:.2f} read {gbs:.0f} GB/s",
                  flush=True)
if False:
    mod, prev = importlib.import_module("generated.cuda.mean_2axes"), importlib.import_module("gen98.cuda.mean_2axes")
    for dt in (torch.bfloat16, torch.float32):
        for (A, N1, B, N2) in ((512, 8, 64, 16), (64, 4, 256, 32), (2048, 2, 128, 4)):
            x = torch.randn(A, N1, B, N2, device="cuda", dtype=dt)
            ok = torch.equal(mod.mean_2axes(x), prev.mean_2axes(x))
            print(f"mean_2axes  {str(dt)[6:]:8} {A} x {N1} x {B} x {N2}: bits {'EQUAL' if ok else 'DIFFER'} | torch "
                  f"{t(lambda: torch.mean(x, (1, 3))):.1f} prev {t(lambda: prev.mean_2axes(x)):.1f} new {t(lambda: mod.mean_2axes(x)):.1f}",
                  flush=True)
