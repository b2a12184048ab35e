"""Run 84: log_softmax at 128-1024 rows of 20000 and 24576 (the points slower than torch in run 82), row-form knobs: across at every grid (bf16), own form (f32), ROW_ACROSS_LANES 8, ROW_FEW_WARPS 8.
log_softmax at 128-1024 rows of 20000 and 24576 with ROW_LONG_WARPS 2 and 8 (part B).
Was run 81: softmax and log_softmax bf16 at 1024-4096 rows of 12288-28000: across (base), own form, across at 2 and 8 lanes a thread.
Was run 80: softmax_held and log_softmax_held across their chunks ("base", the shipped rule) against the
row kernel's own form ("own": ROW_ACROSS_PAD 0, ROW_ACROSS_MIN and ROW_ACROSS_WORDS past every row),
at 256-4096 rows of 12000-32000, f32 and bf16: why log_softmax bf16 4096 x 28000 lost across in run 79
(172.8 -> 206.4 us) where softmax did not. Bits compared at every point.
Was run 79: rows that pad their stacked chunks by less than ROW_ACROSS_PAD (6144) across at every grid."""
import importlib, json, math, os, sys, time
from concurrent.futures import ProcessPoolExecutor
os.environ["REDGEN_FAST_ROUTE"] = "0"
ROOT = os.getcwd()
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/benchmarks"); 
import torch
import torch.nn.functional as F

DT = {"f32": torch.float32, "bf16": torch.bfloat16}
NORMS = ("rms_norm", "layer_norm", "add_rms_norm")
# variant -> (module or None for the generated one, knobs)
VARS = {
    "base": (None, {}),
    "across": (None, {"ROW_ACROSS_WORDS": 0}),
    "al8": (None, {"ROW_ACROSS_LANES": 8}),
    "al2": (None, {"ROW_ACROSS_LANES": 2}),
    "fw8": (None, {"ROW_FEW_WARPS": 8}),
}
PTS_A = [("log_softmax", dt, n, m) for dt in ("f32", "bf16") for n in (20000, 24576) for m in (128, 256, 1024)]
PTS_B = []
PTS_C = []


def variants(op, dt, n, m, part):
    return ["base", "al8", "al2", "fw8"] if dt == "f32" else ["base", "across", "fw8"]


def mod(op, v):
    name = VARS[v][0] or f"generated.cuda.{op}"
    return importlib.import_module(name)


def allmods(op, v):
    ms = [mod(op, v)]
    if VARS[v][0] is None and op in ("softmax", "log_softmax"):
        ms.append(importlib.import_module(f"generated.cuda.{op}_held"))
    return ms


class knobs:
    def __init__(self, op, v):
        self.ms, self.kv, self.old = allmods(op, v), VARS[v][1], []

    def __enter__(self):
        for m in self.ms:
            for k, val in self.kv.items():
                if hasattr(m, k):
                    self.old.append((m, k, getattr(m, k)))
                    setattr(m, k, val)

    def __exit__(self, *a):
        for m, k, val in reversed(self.old):
            setattr(m, k, val)


def ours(op, v):
    f = getattr(mod(op, v), op)
    return (lambda *a: f(*a)) if op in NORMS else (lambda x: f(x, -1))


def peers(op):
    out = {"torch": {"softmax": lambda x: torch.softmax(x, -1), "log_softmax": lambda x: torch.log_softmax(x, -1),
                     "rms_norm": lambda x, w: F.rms_norm(x, x.shape[-1:], w, 1e-6),
                     "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5),
                     "add_rms_norm": lambda x, r, w: (lambda h: (F.rms_norm(h, h.shape[-1:], w, 1e-6), h))(x + r)}[op]}
    try:
        from liger_kernel.ops.softmax import LigerSoftmaxFunction
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        lg = {"softmax": lambda x: LigerSoftmaxFunction.apply(x),
              "rms_norm": lambda x, w: LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False),
              "layer_norm": lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, 1e-5)}.get(op)
        if op == "add_rms_norm":
            from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction
            lg = lambda x, r, w: LigerFusedAddRMSNormFunction.apply(x, r, w, 1e-6, 0.0, "llama", False)  # noqa: E731
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
    r = (0.5 * torch.randn(m, n, device="cuda", generator=g)).to(DT[dt])
    return {"rms_norm": (x, w), "layer_norm": (x, w, b), "add_rms_norm": (x, r, w)}.get(op, (x,))


def warm(job):
    op, v, dt, n, m = job
    with knobs(op, v):
        ours(op, v)(*inputs(op, dt, n, m))
    torch.cuda.synchronize()
    return job


def flat(o):
    return tuple(o) if isinstance(o, (tuple, list)) else (o,)


def bits(a):
    return a.view({1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()])


def timed(op, v, args):
    from gpu_run import graph_ms
    f = ours(op, v)
    with knobs(op, v):
        out = flat(f(*args))
        ms = graph_ms(lambda: f(*args))
    return out, round(ms * 1e3, 2)


def main():
    print("device", torch.cuda.get_device_name(), flush=True)
    points = [(p, "A") for p in PTS_A] + [(p, "B") for p in PTS_B] + [(p, "C") for p in PTS_C]
    jobs = {(op, v, dt, n, m) for (op, dt, n, m), part in points for v in variants(op, dt, n, m, part)}
    t0 = time.time()
    import multiprocessing as mp
    with ProcessPoolExecutor(15, mp_context=mp.get_context("spawn")) as ex:
        list(ex.map(warm, sorted(jobs, key=lambda j: -j[3])))
    print(f"warmed {len(jobs)} in {time.time() - t0:.0f} s", flush=True)
    from gpu_run import copy_bandwidth, graph_ms
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
    rows = []
    for (op, dt, n, m), part in points:
        args = inputs(op, dt, n, m)
        vs = variants(op, dt, n, m, part)
        row = {"part": part, "op": op, "dtype": dt, "M": m, "N": n}
        outs = {}
        for v in vs:
            outs[v], row[v] = timed(op, v, args)
        row["bits_eq"] = all(torch.equal(bits(a), bits(b)) for v in vs for a, b in zip(outs[v], outs["base"]))
        for v, f in peers(op).items():
            row[v] = round(graph_ms(lambda: f(*args)) * 1e3, 2)
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = os.environ.get("OUT", ".")
    with open(f"{out}/run84_ls.json", "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "copy_gbs": bw, "rows": rows}, fh)
    for part in "ABC":
        for op in sorted({r["op"] for r in rows if r["part"] == part}):
            rs = [r for r in rows if r["op"] == op and r["part"] == part]
            for v in VARS:
                got = [r for r in rs if v in r and v != "base"]
                if got:
                    g = math.exp(sum(math.log(r[v] / r["base"]) for r in got) / len(got))
                    print(f"{part} {op}: {v}/base geomean {g:.3f} over {len(got)} "
                          f"(base faster by >3% at {sum(r[v] > 1.03 * r['base'] for r in got)}, slower at {sum(r[v] < 0.97 * r['base'] for r in got)})")
            if "liger" in rs[0]:
                g = math.exp(sum(math.log(r["liger"] / r["base"]) for r in rs) / len(rs))
                print(f"{part} {op}: liger/base geomean {g:.3f}; base slower than liger at {sum(r['base'] > r['liger'] for r in rs)}/{len(rs)}")
            print(f"{part} {op}: slower than torch {sum(r['base'] > r['torch'] for r in rs)}/{len(rs)}")
    print("bits mismatches:", sum(not r["bits_eq"] for r in rows), "of", len(rows))


if __name__ == "__main__":
    main()
