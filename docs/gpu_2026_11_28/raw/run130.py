"""Run 130 (a probe): run 129's losing class, bf16 and f16 rows of 65-256 on 2**22 columns or more at a K of
128-1023, one run of 1024 columns a program in groups of 4 (a K short of the byte block): the natural call
against groups of 8 forced (COLS_STACK_LEAVES 8, the group those views took with blocks of 256) and against
the blocks of 256 (COLS_STACK_DEEP_NARROW_MIN past the view: 26db2bc's launch). Bits compared with the
natural call at every point."""
import sys, importlib, time
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=10) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1),
       "amax": lambda x: torch.amax(x, 1)}
VIEWS = [(16384, 100, 256), (32768, 128, 128), (16384, 200, 256), (8192, 128, 512), (4096, 80, 1000), (65536, 256, 64)]
VARY = {"L8": dict(COLS_STACK_LEAVES=8), "b256": dict(COLS_STACK_DEEP_NARROW_MIN=1 << 62)}


def walk(mod, M, N, K, isz):
    return (f"st{mod._stack_leaves(M, N, K, isz)}/s{mod._stack_split(M, N, K, isz)}/b{mod._walk_block(M, N, K, isz)}"
            f"{'/f' if mod._cols_flat(M, N, K, isz) else ''}") if mod._cols_stack(M, N, K, isz) else "tile"


print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
for name in sys.argv[1:]:
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    for dt in (torch.bfloat16, torch.float16):
        for (M, N, K) in VIEWS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            isz = x.element_size()
            want = fn(x, 1)
            ok = True
            res = {"torch": t(lambda: OPS[name](x)), "nat": t(lambda: fn(x, 1))}
            walks = [walk(mod, M, N, K, isz)]
            for v, kn in VARY.items():
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
            del x
            best = min((k for k in res if k != "torch"), key=res.get)
            print(f"{name:11} {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):16} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | best {best} [{time.time() - t0:.0f}s] {' '.join(walks)}", flush=True)
