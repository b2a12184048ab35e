"""Run 194: softmax's chunk walks (fused and split) with the lean combine (_softmax_stats_lean: one exp,
bit for bit _softmax_stats, as the row kernel's LEAN takes it) in place of the two-exp combine, at rows
longer than a program holds. A second copy of the generated module, its _softmax_stats rebound before
any compile; bits against the shipped module's."""
import sys, importlib.util
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
from gpu_run import graph_ms, copy_bandwidth
import generated.cuda.softmax as ship
spec = importlib.util.spec_from_file_location("softmax_lean", "generated/cuda/softmax.py")
lean = importlib.util.module_from_spec(spec)
sys.modules["softmax_lean"] = lean
spec.loader.exec_module(lean)
lean._softmax_stats = lean._softmax_stats_lean
print(f"device: {torch.cuda.get_device_name()}")
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s")
VARIANTS = [("lean", {}), ("lean u16", {"UNROLL": 16}), ("lean u4", {"UNROLL": 4}),
            ("lean w4", {"ROWS_NARROW_WARPS": 4}), ("lean fused", {"SPLIT_BELOW": 0}), ("lean split", {"SPLIT_BELOW": 10**9})]
for dt in (torch.bfloat16, torch.float32):
    for M, N in ((4096, 151936), (1024, 151936), (256, 151936), (16384, 65536), (4096, 32000)):
        torch.manual_seed(0)
        x = (torch.randn(M, N, device="cuda") * 3).to(dt)
        gb = 2 * x.numel() * x.element_size() / 1e9
        for m in (ship, lean):
            m.SHORT_MAX = 0  # softmax's own order at every length
        ref = ship.softmax(x, 1)
        t_ship = graph_ms(lambda: ship.softmax(x, 1))
        t_torch = graph_ms(lambda: torch.softmax(x, 1))
        line = [f"{str(dt)[6:]} {M}x{N}: shipped {t_ship*1e3:.1f} us ({gb/(t_ship*1e-3)/bw*100:.0f}%), torch {t_torch*1e3:.1f}"]
        for name, knobs in VARIANTS:
            keep = {k: getattr(lean, k) for k in knobs}
            for k, v in knobs.items():
                setattr(lean, k, v)
            try:
                y = lean.softmax(x, 1)
                same = torch.equal(y, ref)
                t = graph_ms(lambda: lean.softmax(x, 1))
                line.append(f"{name}: {t*1e3:.1f} us ({gb/(t*1e-3)/bw*100:.0f}%) {t_ship/t:.3f}x shipped bits={same}")
            except Exception as e:  # noqa: BLE001
                line.append(f"{name} FAILED {type(e).__name__}: {str(e)[:100]}")
            finally:
                for k, v in keep.items():
                    setattr(lean, k, v)
        print("\n  ".join(line), flush=True)
        del x, ref
