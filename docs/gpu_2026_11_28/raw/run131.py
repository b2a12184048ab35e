"""Run 131: run 130's lead built (on a view of one run a K of COLS_STACK_BLOCK or more keeps
COLS_STACK_WIDE_LEAVES): run 129's views again, the working tree's modules (new) against 26db2bc's (gen129prev)
and torch, natural calls. Bits compared with the previous modules at every point."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=10) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1),
       "amin": lambda x: torch.amin(x, 1), "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1),
       "mean": lambda x: torch.mean(x, 1)}
DEEP = [(4096, 128, 1024), (64, 256, 65536), (1024, 64, 4096), (16384, 100, 256), (2048, 200, 2048),
        (32768, 128, 128), (262144, 100, 16), (65536, 256, 64)]
SAME = []
VARY = {}


def walk(mod, M, N, K, isz):
    if not mod._cols_stack(M, N, K, isz):
        return "tile"
    return (f"st{mod._stack_leaves(M, N, K, isz)}/d{mod._stack_depth(N)}/s{mod._stack_split(M, N, K, isz)}"
            f"/b{mod._walk_block(M, N, K, isz)}{'/f' if mod._cols_flat(M, N, K, isz) else ''}")


print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod, prev = importlib.import_module(f"generated.cuda.{name}"), importlib.import_module(f"gen129prev.cuda.{name}")
    fn, fp = getattr(mod, name), getattr(prev, name)
    for dt in (torch.bfloat16, torch.float16):
        vary = VARY if name in ("sum", "amax") and dt == torch.float32 else {}
        for (M, N, K) in DEEP + SAME:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            if name == "nansum":
                x[x > 2.5] = float("nan")
            isz = x.element_size()
            want = fp(x, 1)
            ok = torch.equal(fn(x, 1), want)
            res = {"torch": t(lambda: OPS[name](x)), "prev": t(lambda: fp(x, 1)), "new": t(lambda: fn(x, 1))}
            nat = walk(mod, M, N, K, isz)
            walks = []
            for v, kn in vary.items():
                own = {k: getattr(mod, k) for k in kn}
                for k, w in kn.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
                ok &= torch.equal(fn(x, 1), want)
                res[v] = t(lambda: fn(x, 1))
                walks.append(f"{v}={walk(mod, M, N, K, isz)}")
                for k, w in own.items():
                    setattr(mod, k, w)
                mod._PLANS.clear()
            best = min((k for k in res if k != "torch"), key=res.get)
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):16} {nat:18} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | best {best} prev/new {res['prev'] / res['new']:.2f} torch/new {res['torch'] / res['new']:.2f} "
                  + f"[{time.time() - t0:.0f}s] {' '.join(walks)}", flush=True)
