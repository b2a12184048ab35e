"""Run 54: long rows held by the row kernel (softmax, log_softmax, layer_norm), against the shipped
modules, torch and Liger-Kernel. Bits of every variant == shipped; GPU time (CUDA graphs)."""
import importlib.util, json, math, os, sys, time
from concurrent.futures import ProcessPoolExecutor
os.environ["REDGEN_FAST_ROUTE"] = "0"
ROOT = os.getcwd()
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/benchmarks")
import torch
import torch.nn.functional as F

DT = {"f32": torch.float32, "bf16": torch.bfloat16}
OPS = {
    "softmax": (["ship", "w8", "bt8", "bt16"], [16384, 32000], [1, 8, 32, 128, 256, 512, 1024, 4096, 16384]),
    "log_softmax": (["ship", "w8", "bt8", "bt16"], [16384, 32000], [1, 8, 32, 128, 256, 512, 1024, 4096, 16384]),
    "layer_norm": (["ship", "w8"], [16384], [1, 32, 256, 1024, 4096]),
}


def points():
    for op, (vs, ns, ms) in OPS.items():
        for dt in DT:
            for n in ns:
                for m in ms:
                    if m * n * 4 > 2**31:  # 16384 x 32000: skip
                        continue
                    yield op, dt, n, m


def load(op, v):
    p = f"{ROOT}/generated/cuda/{op}.py" if v == "ship" else f"{ROOT}/_scratch/long/{op}_{v}.py"
    s = importlib.util.spec_from_file_location(f"{op}_{v}", p)
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    return mod


def inputs(op, dt, n, m):
    g = torch.Generator(device="cuda").manual_seed(n + m)
    x = (torch.randn(m, n, device="cuda", generator=g) * 2).to(DT[dt])
    if op == "layer_norm":
        w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
        b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
        return (x, w, b)
    return (x,)


def call(op, mod):
    f = getattr(mod, "_run")
    if op == "layer_norm":
        return lambda x, w, b: mod.layer_norm(x, w, b)[0]
    return lambda x: f(x, -1, None)


def peers(op):
    out = {"torch": {"softmax": lambda x: torch.softmax(x, -1), "log_softmax": lambda x: torch.log_softmax(x, -1),
                     "layer_norm": lambda x, w, b: F.layer_norm(x, x.shape[-1:], w, b, 1e-5)}[op]}
    try:
        from liger_kernel.ops.softmax import LigerSoftmaxFunction
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        lg = {"softmax": lambda x: LigerSoftmaxFunction.apply(x),
              "layer_norm": lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, 1e-5)}.get(op)
        if lg:
            out["liger"] = lg
    except Exception as e:  # noqa: BLE001
        print("liger:", e)
    return out


def warm(job):
    op, v, dt, n, m = job
    t = time.time()
    args = inputs(op, dt, n, m)
    if v in ("torch", "liger"):
        peers(op)[v](*args)
    else:
        call(op, load(op, v))(*args)
    torch.cuda.synchronize()
    return job, round(time.time() - t, 1)


def bits(a):
    return a.view({2: torch.int16, 4: torch.int32}[a.element_size()])


def main():
    print("device", torch.cuda.get_device_name(), flush=True)
    jobs = set()
    for op, dt, n, m in points():
        for v in OPS[op][0] + list(peers(op)):
            jobs.add((op, v, dt, n, 1 if m <= 256 else 4096))
    t0 = time.time()
    import multiprocessing as mp
    with ProcessPoolExecutor(14, mp_context=mp.get_context("spawn")) as ex:
        for job, s in ex.map(warm, sorted(jobs)):
            pass
    print(f"warmed {len(jobs)} in {time.time() - t0:.0f} s", flush=True)
    from gpu_run import copy_bandwidth, graph_ms
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s", flush=True)
    mods = {(op, v): load(op, v) for op, (vs, _, _) in OPS.items() for v in vs}
    rows = []
    for op, dt, n, m in points():
        args = inputs(op, dt, n, m)
        fns = {v: call(op, mods[op, v]) for v in OPS[op][0]}
        fns.update(peers(op))
        outs = {v: f(*args) for v, f in fns.items()}
        ref = outs["ship"]
        row = {"op": op, "dtype": dt, "M": m, "N": n}
        row["bits"] = all(torch.equal(bits(outs[v]), bits(ref)) for v in OPS[op][0])
        row["err"] = max((outs[v].float() - outs["torch"].float()).abs().max().item() for v in OPS[op][0])
        for v, f in fns.items():
            row[v] = round(graph_ms(lambda: f(*args)) * 1e3, 2)
        best = min(row[v] for v in OPS[op][0] if v != "ship")
        row["gbs_best"] = round(2 * m * n * args[0].element_size() / (best * 1e-6) / 1e9)
        row["pct_bw"] = round(100 * row["gbs_best"] / bw)
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = os.environ.get("OUT", ".")
    with open(f"{out}/run54.json", "w") as fh:
        json.dump({"device": torch.cuda.get_device_name(), "copy_gbs": bw, "rows": rows}, fh)
    for op, (vs, _, _) in OPS.items():
        rs = [r for r in rows if r["op"] == op]
        for v in vs + (["liger"] if "liger" in rs[0] else []):
            g = math.exp(sum(math.log(r["torch"] / r[v]) for r in rs) / len(rs))
            print(f"{op} {v}: geomean torch/{v} {g:.3f}, slower than torch at {sum(r[v] > r['torch'] for r in rs)}/{len(rs)}")
    print("bits mismatches:", sum(not r["bits"] for r in rows))


if __name__ == "__main__":
    main()
