"""Run 66: 16-bit rows of 24576 (six chunks of eight stacked rows) on long grids, across their
chunks against the row kernel's own form (4 warps, packed), bits equal; the shipped rule takes the
row kernel's form there (a 16-bit row padding its chunks by a chunk or more)."""
import importlib, json, os, sys
os.environ["REDGEN_FAST_ROUTE"] = "0"
ROOT = os.getcwd()
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/benchmarks")
import torch
import torch.nn.functional as F

OPS = {"softmax_held": 1, "log_softmax_held": 1, "rms_norm": 2, "layer_norm": 3}


def main():
    from gpu_run import copy_bandwidth, graph_ms
    print("device", torch.cuda.get_device_name(), flush=True)
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
    rows = []
    for op, nargs in OPS.items():
        mod = importlib.import_module(f"generated.cuda.{op}")
        f = getattr(mod, op)
        for n in (24576, 9000):
            for m in (1024, 4096):
                g = torch.Generator(device="cuda").manual_seed(n + m)
                x = (torch.randn(m, n, device="cuda", generator=g) * 2).to(torch.bfloat16)
                w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(torch.bfloat16)
                b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(torch.bfloat16)
                args = (x, w, b)[:nargs] if nargs > 1 else (x, -1)
                row = {"op": op, "M": m, "N": n}
                outs = {}
                for v, knob in (("shipped", None), ("across", 0), ("row", 1 << 62)):
                    def call(knob=knob):
                        old = (mod.ROW_ACROSS_MIN, mod.ROW_ACROSS_PROGRAMS)
                        if knob is not None:
                            mod.ROW_ACROSS_MIN, mod.ROW_ACROSS_PROGRAMS = knob, (1 << 62 if knob == 0 else old[1])
                        try:
                            o = f(*args)
                        finally:
                            mod.ROW_ACROSS_MIN, mod.ROW_ACROSS_PROGRAMS = old
                        return o[0] if isinstance(o, tuple) else o
                    outs[v] = call()
                    row[v] = round(graph_ms(call) * 1e3, 2)
                row["eq"] = all(torch.equal(outs[v].view(torch.int16), outs["row"].view(torch.int16)) for v in outs)
                rows.append(row)
                print(json.dumps(row), flush=True)
    with open(f"{os.environ.get('OUT', '.')}/run66.json", "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "copy_gbs": bw, "rows": rows}, fh)


if __name__ == "__main__":
    main()
