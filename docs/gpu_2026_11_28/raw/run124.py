"""Run 124 (after runs 121-123, not adopted: a probe for the next change): the shipped modules' DEPTH stack at rows of 257-512 with wider
column blocks (4 and 8 columns a thread), bf16 taken too (COLS_STACK_DEEP_ITEMSIZE 2), against the natural call.
Run 121: (A) the stack walk's leaves of DEPTH elements (rows past LANES, the TILE walk's lane order) against
the TILE walk (COLS_STACK_N 256) at rows of 257-1024, with its groups of leaves and runs varied; (B) the launcher
rule of 926f406 at the views run 120 did not time (rows of 65-128 on 16384-32768 flat columns, a flat K in 4 runs),
natural calls against the TILE walk and one run. Bits compared with the TILE walk at every point."""
import sys, importlib, time
sys.path.insert(0, "_scratch")
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=10) * 1e3

OPS = {"sum": lambda x: torch.sum(x, 1), "nansum": lambda x: torch.nansum(x, 1), "amax": lambda x: torch.amax(x, 1),
       "vector_norm": lambda x: torch.linalg.vector_norm(x, dim=1), "mean": lambda x: torch.mean(x, 1)}
A = [(256, 400, 512), (256, 300, 512), (128, 300, 128), (64, 512, 256), (256, 512, 1024), (1024, 300, 256),
     (4096, 400, 16), (8192, 300, 32), (64, 384, 2048), (2048, 300, 64)]
B = [(2048, 96, 8), (4096, 128, 8), (1024, 100, 16), (2048, 80, 16), (8192, 160, 8), (4096, 200, 16), (1024, 128, 64),
     (4096, 80, 64), (2048, 96, 64), (192, 100, 1000), (8, 96, 4096), (16384, 100, 16)]
L = lambda n: dict(COLS_STACK_LEAVES=n, COLS_STACK_WIDE_LEAVES=n, COLS_STACK_FLAT_LEAVES=n)
S = lambda n: dict(COLS_STACK_SPLIT_COLS=n)
D = dict(COLS_STACK_DEEP_ITEMSIZE=2)
B = lambda b: dict(COLS_STACK_BLOCK=b, COLS_STACK_SMALL_BLOCK=b // 2)
VA = {"tile": dict(COLS_STACK_N=256), "nat": {}, "L2": dict(**D, COLS_STACK_DEEP_LEAVES=2),
      "L4b512": dict(**D, COLS_STACK_DEEP_LEAVES=4, **B(512)), "L4b512S": dict(**D, COLS_STACK_DEEP_LEAVES=4, **B(512), **S(1 << 20)),
      "L8b512S": dict(**D, COLS_STACK_DEEP_LEAVES=8, **B(512), **S(1 << 20)), "L2b512S": dict(**D, COLS_STACK_DEEP_LEAVES=2, **B(512), **S(1 << 20)),
      "L4b1024S": dict(**D, COLS_STACK_DEEP_LEAVES=4, **B(1024), **S(1 << 21))}
VB = {}

ISZ = [4]

def walk(mod, M, N, K):
    return f"st{mod._stack_leaves(M, N, K)}/d{mod._stack_depth(N)}/s{mod._stack_split(M, N, K, ISZ[0])}/b{mod._walk_block(M, N, K, ISZ[0])}" if mod._cols_stack(M, N, K, ISZ[0]) else "tile"

def run(name, dt, shape, variants):
    mod = importlib.import_module(f"generated.cuda.{name}")
    fn = getattr(mod, name)
    M, N, K = shape
    torch.manual_seed(0)
    x = torch.randn(M, N, K, device="cuda", dtype=dt)
    ISZ[0] = x.element_size()
    res, walks, ok, want = {"torch": t(lambda: OPS[name](x))}, {}, True, None
    for v, kn in variants.items():
        own = {k: getattr(mod, k) for k in kn}
        for k, w in kn.items():
            setattr(mod, k, w)
        mod._PLANS.clear()
        y = fn(x, 1)
        want = y if want is None else want
        ok &= torch.equal(y, want)
        res[v] = t(lambda: fn(x, 1))
        walks[v] = walk(mod, M, N, K)
        for k, w in own.items():
            setattr(mod, k, w)
        mod._PLANS.clear()
    best = min((k for k in res if k != "torch"), key=res.get)
    print(f"{name:7} {str(dt)[6:]:8} {' x '.join(map(str, shape)):16} nat={walks['nat']:18} bits {'EQUAL' if ok else 'DIFFER'} | "
          + " ".join(f"{k} {v:.1f}" for k, v in res.items())
          + f" | best {best} tile/nat {res['tile'] / res['nat']:.2f} torch/nat {res['torch'] / res['nat']:.2f} [{time.time() - t0:.0f}s]", flush=True)

print(torch.cuda.get_device_name(), triton.__version__, flush=True)
t0 = time.time()
part = sys.argv[1]
for name in sys.argv[2:]:
    for dt in (torch.bfloat16, torch.float32):
        for shape in (A if part == "A" else B):
            vs = VA if part == "A" else VB
            run(name, dt, shape, vs)
