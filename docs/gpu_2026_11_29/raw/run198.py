"""Run 198: which of the fused rows kernel's loops pays for Triton's software pipelining (run 197's
gain): the output sweep's alone ("out"), or every tile loop of _k_rows_fused ("walk"); softmax and
log_softmax, rows of 65536-151936 on the fused path. Bits against the shipped modules'."""
import sys, re, types, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
from gpu_run import graph_ms, copy_bandwidth


def patched(name, mode, stages):
    src = open(f"generated/cuda/{name}.py").read()
    a = src.index("def _k_rows_fused(")
    b = src.index("@triton.jit", a)
    seg = src[a:b]
    pat = r"for n0 in range\((0, N, .*)\):\n" if mode == "out" else r"for n0 in range\((.*)\):\n"
    seg, n = re.subn(pat, rf"for n0 in tl.range(\1, num_stages={stages}):\n", seg)
    src = src[:a] + seg + src[b:]
    m = types.ModuleType(f"{name}_{mode}{stages}")
    m.__file__ = f"/tmp/{m.__name__}.py"
    open(m.__file__, "w").write(src)
    sys.modules[m.__name__] = m
    exec(compile(src, m.__file__, "exec"), m.__dict__)
    return m, n


if __name__ == "__main__":
    print(f"device: {torch.cuda.get_device_name()}")
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s")
    for op in ("softmax", "log_softmax"):
        ship = importlib.import_module(f"generated.cuda.{op}")
        variants = []
        for mode, s, u in (("out", 2, 8), ("out", 3, 8), ("out", 2, 4), ("walk", 2, 8), ("walk", 2, 4), ("walk", 3, 4)):
            m, n = patched(op, mode, s)
            variants.append((f"{mode} s{s} u{u} ({n} loops)", m, {"UNROLL": u} if u != 8 else {}))
        points = [(torch.bfloat16, 4096, 151936), (torch.bfloat16, 2048, 151936), (torch.bfloat16, 16384, 65536),
                  (torch.float32, 4096, 151936)] if op == "softmax" else [(torch.bfloat16, 4096, 151936), (torch.float32, 4096, 151936)]
        for dt, M, N in points:
            x = (torch.randn(M, N, device="cuda") * 3).to(dt)
            gb = 2 * x.numel() * x.element_size() / 1e9
            fn = getattr(ship, op)
            ref = fn(x, 1)
            ts = graph_ms(lambda: fn(x, 1))
            line = [f"{op} {str(dt)[6:]} {M}x{N} ({ship._schedule(M, N, 1, x.element_size())[2:7]}): shipped {ts*1e3:.1f} us ({gb/(ts*1e-3)/bw*100:.0f}%)"]
            for name, m, knobs in variants:
                keep = {k: getattr(m, k) for k in knobs}
                for k, v in knobs.items():
                    setattr(m, k, v)
                g = getattr(m, op)
                try:
                    y = g(x, 1)
                    t = graph_ms(lambda: g(x, 1))
                    line.append(f"{name}: {t*1e3:.1f} us ({gb/(t*1e-3)/bw*100:.0f}%) {ts/t:.3f}x bits={torch.equal(y, ref)}")
                except Exception as e:  # noqa: BLE001
                    line.append(f"{name} FAILED {type(e).__name__}: {str(e)[:150]}")
                finally:
                    for k, v in keep.items():
                        setattr(m, k, v)
            print("\n  ".join(line), flush=True)
            del x, ref
