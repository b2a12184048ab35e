"""Run 107: vector_norm's per-element power: shipped (a runtime branch on ord), sq (|x| * |x|), nabs (x * x,
no abs), sum's kernel for reference; natural calls and the stack walk forced at blocks of 128 columns."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=20) * 1e3

mods = {"ship": importlib.import_module("generated.cuda.vector_norm"),
        "sq": importlib.import_module("gen106.vn2.cuda.vector_norm"),
        "nabs": importlib.import_module("gen106.vn3.cuda.vector_norm")}
ssum = importlib.import_module("generated.cuda.sum")
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
PTS = [(128, 128, 1024), (96, 96, 1024), (64, 128, 1024), (1024, 128, 32), (192, 100, 1000), (8, 96, 4096),
       (16, 2048, 2048), (4096, 64, 128), (2048, 96, 8), (32, 96, 512), (8192, 128, 8), (128, 128, 512)]
for force in (False, True):
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            if force and N > 128:
                continue
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            res, bits = {"torch": t(lambda: torch.linalg.vector_norm(x, dim=1))}, True
            for name, mod in list(mods.items()) + [("sum", ssum)]:
                fn = getattr(mod, "sum" if name == "sum" else "vector_norm")
                kn = dict(COLS_STACK_MIN=0, COLS_STACK_LONG_MIN=0, COLS_STACK_SMALL_BLOCK=128) if force else {}
                own = {k: getattr(mod, k) for k in kn}
                for k, w in kn.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                if name != "sum":
                    bits &= torch.equal(fn(x, 1), mods["ship"].vector_norm(x, 1))
                res[name] = t(lambda: fn(x, 1))
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            walk = "forced" if force else ("stack" if mods["ship"]._cols_stack(M, N, K) else "tile")
            print(f"{str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} {walk:6} bits {'EQUAL' if bits else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items()) + f" [{time.time() - t0:.0f}s]", flush=True)
