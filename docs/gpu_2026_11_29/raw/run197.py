"""Run 197: softmax's walks of rows of 151936 with their tile loops software-pipelined by Triton
(tl.range(..., num_stages=S): the next iterations' loads issued ahead into shared memory). The same
tiles in the same order: bits against the shipped module's."""
import sys, re, types, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
from gpu_run import graph_ms, copy_bandwidth


def patched(name, stages):
    src = open(f"generated/cuda/{name}.py").read()
    src, n = re.subn(r"for n0 in range\((.*)\):\n", rf"for n0 in tl.range(\1, num_stages={stages}):\n", src)
    m = types.ModuleType(f"{name}_s{stages}")
    m.__file__ = f"/tmp/{name}_s{stages}.py"
    open(m.__file__, "w").write(src)
    sys.modules[m.__name__] = m
    exec(compile(src, m.__file__, "exec"), m.__dict__)
    return m, n


if __name__ == "__main__":
    ship = importlib.import_module("generated.cuda.softmax")
    lsm = importlib.import_module("generated.cuda.log_softmax")
    print(f"device: {torch.cuda.get_device_name()}")
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s")
    variants = []
    for s in (2, 3, 4):
        m, n = patched("softmax", s)
        variants.append((f"softmax s{s}", m, {}))
        variants.append((f"softmax s{s} u4", m, {"UNROLL": 4}))
        variants.append((f"softmax s{s} w4", m, {"ROWS_NARROW_WARPS": 4}))
    print(f"{n} loops pipelined a module")
    for dt in (torch.bfloat16, torch.float32):
        for M in (4096, 1024):
            x = (torch.randn(M, 151936, device="cuda") * 3).to(dt)
            gb = 2 * x.numel() * x.element_size() / 1e9
            ref = ship.softmax(x, 1)
            ts = graph_ms(lambda: ship.softmax(x, 1))
            line = [f"{str(dt)[6:]} {M}x151936: shipped {ts*1e3:.1f} us ({gb/(ts*1e-3)/bw*100:.0f}%)"]
            for name, m, knobs in variants:
                keep = {k: getattr(m, k) for k in knobs}
                for k, v in knobs.items():
                    setattr(m, k, v)
                try:
                    y = m.softmax(x, 1)
                    t = graph_ms(lambda: m.softmax(x, 1))
                    line.append(f"{name}: {t*1e3:.1f} us ({gb/(t*1e-3)/bw*100:.0f}%) {ts/t:.3f}x bits={torch.equal(y, ref)}")
                except Exception as e:  # noqa: BLE001
                    line.append(f"{name} FAILED {type(e).__name__}: {str(e)[:150]}")
                finally:
                    for k, v in keep.items():
                        setattr(m, k, v)
            print("\n  ".join(line), flush=True)
