"""Run 202: the held rows' across kernel (softmax_held, log_softmax_held) with its held words made opaque
before a pass (OPQ 1: the output sweep, 2: also the sum's pass; what follows is computed again from the
packed words rather than kept as float32) and with a register cap (maxnreg) for two programs of 16 warps
a multiprocessor. Bits against the shipped module, row 0 alone against row 0 in the batch, GPU time,
each kernel's registers and spills as compiled here."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "_scratch/r202")
from gpu_run import graph_ms, copy_bandwidth

VARS = ["v_opq", "v_all", "v_opq64", "v_all64", "v_r64"]
print(f"device: {torch.cuda.get_device_name()}")
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s")
bf = torch.bfloat16


def regs(mod):
    out = []
    try:
        for dev, cache in mod._k_rows_across.device_caches.items():
            for k in cache[0].values():
                out.append(f"{k.n_regs}r/{k.n_spills}s")
    except Exception as e:  # noqa: BLE001
        out.append(f"? {e}")
    return ",".join(sorted(set(out)))


POINTS = [(bf, 4096, 32000), (bf, 16384, 32000), (bf, 256, 32000), (bf, 4096, 20000), (bf, 4096, 16384),
          (bf, 1, 32000), (torch.float32, 4096, 32000)]
for op in ("softmax_held", "log_softmax_held"):
    ship = importlib.import_module(f"generated.cuda.{op}")
    var = {v: importlib.import_module(f"{v}.{op}") for v in VARS}
    for dt, M, N in POINTS:
        x = torch.randn(M, N, device="cuda").to(dt)
        f = lambda m, x: getattr(m, op)(x, 1)
        y0 = f(ship, x)
        ts = graph_ms(lambda: f(ship, x))
        nbytes = 2 * x.numel() * x.element_size()
        cells = [f"shipped {ts*1e3:.1f} us ({nbytes/ts/1e6/bw*100:.0f}% copy, {regs(ship)})"]
        for v, m in var.items():
            y = f(m, x)
            same = torch.equal(y, y0)
            alone = torch.equal(f(m, x[:1]), y[:1])
            t = graph_ms(lambda: f(m, x))
            cells.append(f"{v} {t*1e3:.1f} ({ts/t:.3f}x{'' if same and alone else ' BITS DIFFER' if not same else ' ROW0 DIFFERS'}, {regs(m)})")
        tt = graph_ms(lambda: torch.softmax(x, 1) if op == "softmax_held" else torch.log_softmax(x, 1))
        print(f"{op} {str(dt)[6:]} {M}x{N}: torch {tt*1e3:.1f}; " + "; ".join(cells), flush=True)
        del x, y0
