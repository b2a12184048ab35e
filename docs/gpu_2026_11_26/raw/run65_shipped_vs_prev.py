"""Run 65: the shipped modules (rows of up to 32768 held, the row kernel across its chunks) against
the previous landing's (_scratch/prev64), torch and Liger-Kernel. Bits: new == prev where the two
share an order (all but softmax/log_softmax at 16384 < N <= 32768, which now take the held
two-pass order: there new == the held spec's chunked walk). GPU time from CUDA graphs."""
import importlib, json, math, os, sys, time
from concurrent.futures import ProcessPoolExecutor
os.environ["REDGEN_FAST_ROUTE"] = "0"
ROOT = os.getcwd()
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/benchmarks"); sys.path.insert(0, ROOT + "/_scratch")
import torch
import torch.nn.functional as F

DT = {"f32": torch.float32, "bf16": torch.bfloat16}
NS = [8192, 9000, 12000, 16384, 20000, 24576, 32000]
MS = [1, 32, 256, 1024, 4096]
OPS = ["softmax", "log_softmax", "rms_norm", "layer_norm"]


def load(op, v):
    return importlib.import_module(f"generated.cuda.{op}" if v == "new" else f"prev64.{op}")


def call(op, mod):
    f = getattr(mod, op)
    return (lambda *a: f(*a)) if op in ("rms_norm", "layer_norm") else (lambda x: f(x, -1))


def walk(op):
    """The held spec's chunked walk (ROW_MAX_TILES 0), for softmax/log_softmax past 16384."""
    mod = importlib.import_module(f"generated.cuda.{op}_held")

    def g(x):
        old = mod.ROW_MAX_TILES
        mod.ROW_MAX_TILES = 0
        try:
            return getattr(mod, f"{op}_held")(x, -1)
        finally:
            mod.ROW_MAX_TILES = old
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


def inputs(op, dt, n, m):
    g = torch.Generator(device="cuda").manual_seed(n + m)
    x = (torch.randn(m, n, device="cuda", generator=g) * 2).to(DT[dt])
    w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    return {"rms_norm": (x, w), "layer_norm": (x, w, b)}.get(op, (x,))


def fn(op, v):
    p = peers(op)
    if v in p:
        return p[v]
    return walk(op) if v == "walk" else call(op, load(op, v))


def warm(job):
    op, v, dt, n, m = job
    fn(op, v)(*inputs(op, dt, n, m))
    torch.cuda.synchronize()
    return job


def flat(o):
    return tuple(o) if isinstance(o, (tuple, list)) else (o,)


def bits(a):
    return a.view({1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()])


def main():
    print("device", torch.cuda.get_device_name(), flush=True)
    jobs = {(op, v, dt, n, mc) for op in OPS for dt in DT for n in NS for mc in (1, 4096)
            for v in ["new", "prev"] + list(peers(op)) + (["walk"] if op in ("softmax", "log_softmax") and n > 16384 else [])}
    t0 = time.time()
    import multiprocessing as mp
    with ProcessPoolExecutor(15, mp_context=mp.get_context("spawn")) as ex:
        list(ex.map(warm, sorted(jobs, key=lambda j: (j[1] not in ("new", "prev"), -j[3]))))
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
                    fns = {v: fn(op, v) for v in ["new", "prev"] + list(peers(op))}
                    outs = {v: flat(f(*args)) for v, f in fns.items()}
                    ref = "walk" if op in ("softmax", "log_softmax") and n > 16384 else "prev"
                    if ref == "walk":
                        outs["walk"] = flat(fn(op, "walk")(*args))
                    row = {"op": op, "dtype": dt, "M": m, "N": n, "bits_ref": ref,
                           "bits_eq": all(torch.equal(bits(a), bits(b)) for a, b in zip(outs["new"], outs[ref]))}
                    for v, f in fns.items():
                        row[v] = round(graph_ms(lambda: f(*args)) * 1e3, 2)
                    nbytes = sum(a.numel() * a.element_size() for a in args) + args[0].numel() * args[0].element_size()
                    row["pct_bw_new"] = round(100 * nbytes / (row["new"] * 1e-6) / 1e9 / bw)
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    out = os.environ.get("OUT", ".")
    with open(f"{out}/run65.json", "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "copy_gbs": bw, "rows": rows}, fh)
    for op in OPS:
        rs = [r for r in rows if r["op"] == op]
        g = math.exp(sum(math.log(r["prev"] / r["new"]) for r in rs) / len(rs))
        print(f"{op}: geomean prev/new {g:.3f}; new slower than prev by >3% at {sum(r['new'] > 1.03 * r['prev'] for r in rs)}/{len(rs)};"
              f" slower than torch at {sum(r['new'] > r['torch'] for r in rs)} (prev {sum(r['prev'] > r['torch'] for r in rs)})")
        if "liger" in rs[0]:
            g = math.exp(sum(math.log(r["liger"] / r["new"]) for r in rs) / len(rs))
            print(f"{op}: geomean liger/new {g:.3f}, new slower than liger at {sum(r['new'] > r['liger'] for r in rs)}/{len(rs)}")
    print("bits mismatches:", sum(not r["bits_eq"] for r in rows), "of", len(rows))


if __name__ == "__main__":
    main()
