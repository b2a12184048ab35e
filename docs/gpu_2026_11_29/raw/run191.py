"""Run 191: var f32 over the middle axis at K = 64 (the two points slower than torch): the cols kernel's
block, warps and tiles in flight, set through the launcher's schedule at run time. Bits vs the shipped form."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
from gpu_run import graph_ms
mod = importlib.import_module("generated.cuda.var")
base_schedule = mod._schedule

def variant(block=None, warps=None):
    def sched(M, N, K, isz):
        chunk, nc, shape, b, programs, w, split, wide = base_schedule(M, N, K, isz)
        if shape == "cols":
            if block is not None:
                b = block
                programs = M * -(-K // b)
                split = nc > 1 and programs < mod.SPLIT_BELOW * (nc - 1)
            if warps is not None:
                w = warps
        return chunk, nc, shape, b, programs, w, split, mod._needs_int64(N, M * K, chunk, b)
    return sched

VARIANTS = [("shipped", {}, {}), ("block32", {"block": 32}, {}), ("warps8", {"warps": 8}, {}),
            ("block32_warps8", {"block": 32, "warps": 8}, {}), ("unroll1", {}, {"COLS_UNROLL": 1}),
            ("unroll4", {}, {"COLS_UNROLL": 4}), ("block32_unroll1", {"block": 32}, {"COLS_UNROLL": 1}),
            ("warps8_unroll4", {"warps": 8}, {"COLS_UNROLL": 4}), ("block8", {"block": 8}, {}),
            ("fused", {}, {"SPLIT_BELOW": 0}), ("fused_warps8", {"warps": 8}, {"SPLIT_BELOW": 0}),
            ("fused_unroll4", {}, {"SPLIT_BELOW": 0, "COLS_UNROLL": 4})]
print(f"device: {torch.cuda.get_device_name()}")
for M in (64, 256):
    x = torch.randn(M, 40000, 64, device="cuda")
    t_torch = graph_ms(lambda: torch.var(x, 1))
    ref = None
    row = [f"f32 {M}x40000x64 torch {t_torch * 1e3:.1f}"]
    for name, sv, knobs in VARIANTS:
        keep = {k: getattr(mod, k) for k in knobs}
        mod._schedule = variant(**sv)
        for k, v in knobs.items():
            setattr(mod, k, v)
        mod._PLANS.clear()
        try:
            y = mod.var(x, 1)
            if ref is None:
                ref = y
            same = torch.equal(y, ref)
            alone = torch.equal(mod.var(x[:1], 1), y[:1])
            t = graph_ms(lambda: mod.var(x, 1))
            row.append(f"{name} {t * 1e3:.1f} ({t / t_torch:.3f}x torch) bits={same} row0={alone}")
        except Exception as e:  # noqa: BLE001
            row.append(f"{name} FAILED {type(e).__name__}: {str(e)[:120]}")
        finally:
            mod._schedule = base_schedule
            for k, v in keep.items():
                setattr(mod, k, v)
    print("\n  ".join(row))
