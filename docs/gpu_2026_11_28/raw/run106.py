"""Run 106: experiments on the shipped modules (HEAD c455893's generated/).
vn2: vector_norm with its per-element power fixed to a * a (as a constexpr ord == 2 would compile it)
against the shipped one (a runtime branch on ord an element), bits compared.
edge: the cols walks at short rows and few columns: the natural call against the walk forced (blocks
of 128 and 64 columns), bits compared with the natural call."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=15) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "argmax": lambda x: torch.argmax(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1)}
print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
part = sys.argv[1]
if part == "vn2":
    mod = importlib.import_module("generated.cuda.vector_norm")
    vn2 = importlib.import_module("gen106.vn2.cuda.vector_norm")
    PTS = [(1024, 128, 1024), (128, 128, 1024), (64, 128, 1024), (96, 96, 1024), (192, 100, 1000), (4096, 64, 128),
           (512, 32, 128), (4096, 64, 4), (1024, 128, 32), (16384, 8, 64), (8, 96, 4096), (16, 2048, 2048),
           (4096, 4096, 1), (64, 32768, 1)]
    for dt in (torch.bfloat16, torch.float32):
        for (M, N, K) in PTS:
            torch.manual_seed(0)
            x = torch.randn(M, N, K, device="cuda", dtype=dt)
            ok = torch.equal(mod.vector_norm(x, 1), vn2.vector_norm(x, 1))
            res = {"torch": t(lambda: torch.linalg.vector_norm(x, dim=1)), "ship": t(lambda: mod.vector_norm(x, 1)),
                   "sq": t(lambda: vn2.vector_norm(x, 1))}
            print(f"vn2 {str(dt)[6:]:8} {' x '.join(map(str, (M, N, K))):17} bits {'EQUAL' if ok else 'DIFFER'} | "
                  + " ".join(f"{k} {v:.1f}" for k, v in res.items())
                  + f" | ship/sq {res['ship'] / res['sq']:.2f} torch/sq {res['torch'] / res['sq']:.2f} [{time.time() - t0:.0f}s]", flush=True)
else:
    for name in sys.argv[2:]:
        mod = importlib.import_module("gen106.vn2.cuda.vector_norm" if name == "vn2" else f"generated.cuda.{name}")
        op = "vector_norm" if name == "vn2" else name
        fn = getattr(mod, op)
        free = name.startswith("arg")
        walk = dict(FREE_COLS_MIN=0, FREE_COLS_LONG_MIN=0) if free else dict(COLS_STACK_MIN=0, COLS_STACK_LONG_MIN=0)
        small = "FREE_COLS_SMALL_BLOCK" if free else "COLS_STACK_SMALL_BLOCK"
        for N in (16, 32, 64, 96, 128):
            for C in (4096, 8192, 16384, 32768, 65536):
                for K in (8, 512):
                    M = C // K
                    torch.manual_seed(0)
                    x = torch.randn(M, N, K, device="cuda", dtype=torch.bfloat16)
                    want = fn(x, 1)
                    res = {"torch": t(lambda: OPS[op](x)), "nat": t(lambda: fn(x, 1))}
                    ok = True
                    for v, kn in (("w128", dict(walk, **{small: 128})), ("w64", dict(walk, **{small: 64}))):
                        own = {k: getattr(mod, k) for k in kn}
                        for k, w in kn.items():
                            setattr(mod, k, w)
                        mod._PLANS.clear()
                        ok &= torch.equal(fn(x, 1), want)
                        res[v] = t(lambda: fn(x, 1))
                        for k, w in own.items():
                            setattr(mod, k, w)
                        mod._PLANS.clear()
                    on = mod._free_cols(M, N, K) if free else mod._cols_stack(M, N, K)
                    best = min(res, key=res.get)
                    print(f"edge {name:7} N {N:3} C {C:5} K {K:3} {'walk' if on else 'tile':4} bits {'EQUAL' if ok else 'DIFFER'} | "
                          + " ".join(f"{k} {v:.1f}" for k, v in res.items()) + f" | best {best} [{time.time() - t0:.0f}s]", flush=True)
