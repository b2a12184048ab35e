"""Run 200: (a) the fused rows walk of softmax / log_softmax bf16 rows of 151936 under a register cap
(maxnreg: more programs an SM; run 196 found 18 at 56 registers, 46% occupancy); bits against the
uncapped call. (b) a held row's kernel for ncu (softmax_held bf16 16384 x 32000)."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
if sys.argv[1:] == ["held"]:
    held = importlib.import_module("generated.cuda.softmax_held")
    x = torch.randn(16384, 32000, device="cuda").to(torch.bfloat16)
    for _ in range(3):
        held.softmax_held(x, 1)
    torch.cuda.synchronize()
    sys.exit(0)
from gpu_run import graph_ms
CAP = {"reg": None}
for op in ("softmax", "log_softmax"):
    mod = importlib.import_module(f"generated.cuda.{op}")
    go = mod._go

    def capped(kernel, grid, args, consts, mod=mod, go=go):
        if kernel is mod._k_rows_fused and CAP["reg"]:
            consts = dict(consts, maxnreg=CAP["reg"])
        return go(kernel, grid, args, consts)

    mod._go = capped
    fn = getattr(mod, op)
    for M in (4096, 2048):
        x = (torch.randn(M, 151936, device="cuda") * 3).to(torch.bfloat16)
        line = [f"{op} bf16 {M}x151936:"]
        ref = None
        for reg in (None, 32, 40, 48):
            CAP["reg"] = reg
            mod._PLANS.clear()
            try:
                y = fn(x, 1)
                ref = y if ref is None else ref
                t = graph_ms(lambda: fn(x, 1))
                line.append(f"maxnreg {reg}: {t * 1e3:.1f} us bits={torch.equal(y, ref)}")
            except Exception as e:  # noqa: BLE001
                line.append(f"maxnreg {reg} FAILED {type(e).__name__}: {str(e)[:120]}")
        print("  ".join(line), flush=True)
        del x
