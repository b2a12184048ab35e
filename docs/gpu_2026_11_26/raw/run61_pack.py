"""Run 61: 16-bit long rows held packed (int32 pairs, _scratch/mk_pack.py) against the shipped
RAW tiles (one value a register), bf16, rows of 9000-16384. Bits of every variant must equal the
shipped module's. GPU time from CUDA graphs; copy bandwidth."""
import importlib, importlib.util, json, math, os, sys, time
from concurrent.futures import ProcessPoolExecutor
os.environ["REDGEN_FAST_ROUTE"] = "0"
ROOT = os.getcwd()
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/benchmarks")
import torch
import torch.nn.functional as F

NS = [9000, 12000, 12288, 16384]
MS = [32, 1024, 4096]
OPS = ["softmax_held", "log_softmax_held", "rms_norm", "layer_norm"]
# variant: (module, ROW_LONG_WARPS, ROW_STACK_LONG)
VS = {"ship": ("gen", 4, 12288), "P4": ("pack", 4, 12288), "P4s8": ("pack", 4, 8192), "P4s4": ("pack", 4, 16384),
      "P2": ("pack", 2, 12288)}


def mod(op, kind):
    if kind == "gen":
        return importlib.import_module(f"generated.cuda.{op}")
    name = f"pack_{op}"
    if name not in sys.modules:
        s = importlib.util.spec_from_file_location(name, f"{ROOT}/_scratch/pack/{op}.py")
        m = importlib.util.module_from_spec(s)
        sys.modules[name] = m
        s.loader.exec_module(m)
    return sys.modules[name]


def fn(op, v):
    kind, w, sl = VS[v]
    m = mod(op, kind)
    m.ROW_LONG_WARPS, m.ROW_STACK_LONG = w, sl
    f = getattr(m, op)
    return (lambda *a: f(*a)) if op in ("rms_norm", "layer_norm") else (lambda x: f(x, -1))


def inputs(op, n, m):
    g = torch.Generator(device="cuda").manual_seed(n + m)
    x = (torch.randn(m, n, device="cuda", generator=g) * 2).to(torch.bfloat16)
    x[0, 5] = float("nan") if m > 1 and op in ("rms_norm",) else x[0, 5]
    w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(torch.bfloat16)
    b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(torch.bfloat16)
    return {"rms_norm": (x, w), "layer_norm": (x, w, b)}.get(op, (x,))


def peers(op):
    out = {"torch": {"softmax_held": lambda x: torch.softmax(x, -1), "log_softmax_held": lambda x: torch.log_softmax(x, -1),
                     "rms_norm": lambda x, w: F.rms_norm(x, x.shape[-1:], w, 1e-6),
                     "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5)}[op]}
    try:
        from liger_kernel.ops.softmax import LigerSoftmaxFunction
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        lg = {"softmax_held": lambda x: LigerSoftmaxFunction.apply(x),
              "rms_norm": lambda x, w: LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False),
              "layer_norm": lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, 1e-5)}.get(op)
        if lg:
            out["liger"] = lg
    except Exception as e:  # noqa: BLE001
        print("liger:", e)
    return out


def warm(job):
    op, v, n, m = job
    args = inputs(op, n, m)
    (peers(op)[v] if v in ("torch", "liger") else fn(op, v))(*args)
    torch.cuda.synchronize()
    return job


def bits(a):
    return a.view({1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()])


def flat(o):
    return tuple(o) if isinstance(o, (tuple, list)) else (o,)


def main():
    print("device", torch.cuda.get_device_name(), flush=True)
    jobs = set()
    for op in OPS:
        for n in NS:
            for m in MS:
                for v in list(VS) + list(peers(op)):
                    jobs.add((op, v, n, 32 if m <= 256 else 4096))
    t0 = time.time()
    import multiprocessing as mp
    with ProcessPoolExecutor(15, mp_context=mp.get_context("spawn")) as ex:
        list(ex.map(warm, sorted(jobs, key=lambda j: (j[2], j[1]), reverse=True)))
    print(f"warmed {len(jobs)} in {time.time() - t0:.0f} s", flush=True)
    from gpu_run import copy_bandwidth, graph_ms
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
    rows = []
    for op in OPS:
        for n in NS:
            for m in MS:
                args = inputs(op, n, m)
                row = {"op": op, "M": m, "N": n}
                ref, mism = None, []
                for v in VS:
                    f = fn(op, v)
                    o = flat(f(*args))
                    if ref is None:
                        ref = o
                    elif not all(torch.equal(bits(a), bits(b)) for a, b in zip(o, ref)):
                        mism.append(v)
                    row[v] = round(graph_ms(lambda: f(*args)) * 1e3, 2)
                for v, f in peers(op).items():
                    row[v] = round(graph_ms(lambda: f(*args)) * 1e3, 2)
                row["mismatch"] = mism
                row["pct_bw"] = {v: round(100 * 2 * m * n * 2 / (row[v] * 1e-6) / 1e9 / bw) for v in VS}
                rows.append(row)
                print(json.dumps(row), flush=True)
    out = os.environ.get("OUT", ".")
    with open(f"{out}/run61.json", "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "copy_gbs": bw, "rows": rows}, fh)
    for op in OPS:
        rs = [r for r in rows if r["op"] == op]
        gm = {v: math.exp(sum(math.log(r["ship"] / r[v]) for r in rs) / len(rs)) for v in VS}
        print(op, "geomean ship/v:", " ".join(f"{v} {g:.3f}" for v, g in gm.items()),
              "| slower than torch:", {v: sum(r[v] > r["torch"] for r in rs) for v in VS})
    print("bits mismatches:", sum(bool(r["mismatch"]) for r in rows))


if __name__ == "__main__":
    main()
