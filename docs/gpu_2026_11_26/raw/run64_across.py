"""Run 64: the row kernel across its chunks (_k_rows_across, 8/16/32 warps) against the row kernel
(ROW_MAX_TILES 128: rows of up to 32768 held; 4 warps, 8 in f32 past 16384), the chunked walk
(ROW_MAX_TILES 0: the bits every variant must give), the shipped online order (softmax,
log_softmax), torch and Liger-Kernel. GPU time from CUDA graphs; copy bandwidth in the same run."""
import importlib, json, os, sys, time
from concurrent.futures import ProcessPoolExecutor
os.environ["REDGEN_FAST_ROUTE"] = "0"
ROOT = os.getcwd()
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/benchmarks")
import torch
import torch.nn.functional as F

DT = {"f32": torch.float32, "bf16": torch.bfloat16}
NS = [int(a) for a in sys.argv[1].split(",")]
TAG = sys.argv[2]
MS = [1, 32, 256, 1024, 4096]
OPS = ["softmax", "log_softmax", "rms_norm", "layer_norm"]
HELD = {"softmax": "softmax_held", "log_softmax": "log_softmax_held", "rms_norm": "rms_norm", "layer_norm": "layer_norm"}
OFF = 1 << 62


def knobs(v, dt, n):
    if v == "walk":
        return {"ROW_MAX_TILES": 0}
    if v == "row":
        return {"ROW_MAX_TILES": 128, "ROW_ACROSS_PROGRAMS": -1, "ROW_LONG_WARPS": 8 if dt == "f32" and n > 16384 else 4}
    w = int(v[1:])
    return {"ROW_MAX_TILES": 128, "ROW_ACROSS_PROGRAMS": OFF, "ROW_ACROSS_MIN": 0, "ROW_ACROSS_WARPS": w}


VS = ["walk", "row", "a8", "a16", "a32"]


def ours(op, v, dt, n):
    if v == "online":
        f = getattr(importlib.import_module(f"generated.cuda.{op}"), op)
        return lambda x: f(x, -1)
    mod = importlib.import_module(f"generated.cuda.{HELD[op]}")
    f = getattr(mod, HELD[op])
    kn = knobs(v, dt, n)

    def g(*a):
        for k, val in kn.items():
            setattr(mod, k, val)
        return f(*a) if op in ("rms_norm", "layer_norm") else f(a[0], -1)
    return g


def peers(op):
    out = {"torch": {"softmax": lambda x: torch.softmax(x, -1), "log_softmax": lambda x: torch.log_softmax(x, -1),
                     "rms_norm": lambda x, w: F.rms_norm(x, x.shape[-1:], w, 1e-6),
                     "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5)}[op]}
    try:
        from liger_kernel.ops.softmax import LigerSoftmaxFunction
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        lg = {"softmax": lambda x: LigerSoftmaxFunction.apply(x),
              "rms_norm": lambda x, w: LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False),
              "layer_norm": lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, 1e-5)}.get(op)
        if lg:
            out["liger"] = lg
    except Exception as e:  # noqa: BLE001
        print("liger:", e)
    return out


def variants(op, n=0):
    return [v for v in VS if not (v == "row" and n > 20000)] + (["online"] if op in ("softmax", "log_softmax") else []) + list(peers(op))


def fn(op, v, dt, n):
    p = peers(op)
    return p[v] if v in p else ours(op, v, dt, n)


def inputs(op, dt, n, m):
    g = torch.Generator(device="cuda").manual_seed(n + m)
    x = (torch.randn(m, n, device="cuda", generator=g) * 2).to(DT[dt])
    w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    return {"rms_norm": (x, w), "layer_norm": (x, w, b)}.get(op, (x,))


def warm(job):
    op, v, dt, n, m = job
    fn(op, v, dt, n)(*inputs(op, dt, n, m))
    torch.cuda.synchronize()
    return job


def bits(a):
    if isinstance(a, tuple):
        a = a[0]
    return a.view({2: torch.int16, 4: torch.int32}[a.element_size()])


def main():
    print("device", torch.cuda.get_device_name(), flush=True)
    jobs = {(op, v, dt, n, mc) for op in OPS for dt in DT for n in NS for mc in (1, 4096) for v in variants(op, n)}
    t0 = time.time()
    import multiprocessing as mp
    with ProcessPoolExecutor(15, mp_context=mp.get_context("spawn")) as ex:
        list(ex.map(warm, sorted(jobs, key=lambda j: (j[1] != "row", j[3] < 20000))))
    print(f"warmed {len(jobs)} in {time.time() - t0:.0f} s", flush=True)
    from gpu_run import copy_bandwidth, graph_ms
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
    rows = []
    for op in OPS:
        for dt in DT:
            for n in NS:
                for m in MS:
                    args = inputs(op, dt, n, m)
                    row = {"op": op, "dtype": dt, "M": m, "N": n}
                    outs = {}
                    for v in variants(op, n):
                        f = fn(op, v, dt, n)
                        outs[v] = f(*args)
                        row[v] = round(graph_ms(lambda: f(*args)) * 1e3, 2)
                    row["eq"] = all(torch.equal(bits(outs[v]), bits(outs["walk"])) for v in VS if v in outs)
                    ours_v = [v for v in VS if v != "walk" and v in outs]
                    best = min(ours_v, key=lambda v: row[v])
                    row["best"] = best
                    nbytes = sum(a.numel() * a.element_size() for a in args) + args[0].numel() * args[0].element_size()
                    row["pct_bw"] = round(100 * nbytes / (row[best] * 1e-6) / 1e9 / bw)
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    out = os.environ.get("OUT", ".")
    with open(f"{out}/run64_{TAG}.json", "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "copy_gbs": bw, "rows": rows}, fh)
    print("bits differ:", sum(not r["eq"] for r in rows))


if __name__ == "__main__":
    main()
