"""Run 239: softmax_held and log_softmax_held's across kernel persistent, the next rows' loads pipelined
(make.py: ps) against the modules as built (head). Variant names: head, or ps+sS+gG (STAGES S, G programs an SM).
Bits: each variant against head's output, row 0 alone against row 0 in the batch; accuracy via head (shipped).
    python bench.py warm|time|cpu OP VARIANT[,VARIANT] [DT:M:N,...]"""
import importlib.util, os, sys
from pathlib import Path
import torch
ROOT = Path.cwd()
HERE = Path(__file__).resolve().parent
MODE, OP, VARS = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
CPU = MODE == "cpu"
if not CPU:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from gpu_run import graph_ms, copy_bandwidth  # noqa: E402
DEV = "cpu" if CPU else "cuda"
DT = {"bf16": torch.bfloat16, "f32": torch.float32}
POINTS = [(a, int(b), int(c)) for a, b, c in (p.split(":") for p in sys.argv[4].split(","))]
REF = {"softmax_held": torch.softmax, "log_softmax_held": torch.log_softmax}
USED = {}


def load(v):
    mod, *knobs = v.split("+")
    s = importlib.util.spec_from_file_location(f"{OP}_{v}", HERE / f"{OP}_{mod}.py")
    m = importlib.util.module_from_spec(s); sys.modules[s.name] = m; s.loader.exec_module(m)
    stages, per_sm = 2, 1.0
    for k in knobs:
        if k[0] == "s":
            stages = int(k[1:])
        elif k[0] == "g":
            per_sm = float(k[1:])
        else:
            raise SystemExit(f"knob {k}?")
    if mod != "head":
        sms = 3 if CPU else torch.cuda.get_device_properties(0).multi_processor_count
        go = m._go

        def spy(kernel, grid, args, consts):
            if kernel is m._k_rows_across:
                programs = grid[0]
                grid = (max(1, min(programs, int(sms * per_sm))),)
                args = (*args[:-2], programs, args[-1])
                consts = dict(consts, STAGES=stages, PF_LINES=0)
                USED[v] = f"across G={grid[0]} of {programs}, warps {consts['num_warps']}"
            return go(kernel, grid, args, consts)
        m._go = spy
    return getattr(m, OP)


def inputs(d, m, n):
    g = torch.Generator(device=DEV).manual_seed(m + n)
    x = torch.randn(m, n, device=DEV, generator=g).to(DT[d])
    x[m // 2, n // 3] = float("-inf")
    return x


if MODE == "warm":
    for v in VARS:
        fn = load(v)
        for d, m, n in POINTS:
            x = inputs(d, m, n)
            try:
                fn(x, -1); fn(x[:1].clone(), -1)
            except Exception as e:  # noqa: BLE001
                print("ERR", v, d, m, n, e.__class__.__name__, str(e)[:300])
    torch.cuda.synchronize(); print("warm", VARS)
else:
    if not CPU:
        bw = copy_bandwidth()
        print("device", torch.cuda.get_device_name(), "copy bandwidth %.0f GB/s" % bw, flush=True)
    print("| point | torch us | " + " | ".join(VARS) + " |", flush=True)
    print("|---" * (len(VARS) + 2) + "|", flush=True)
    fns = {v: load(v) for v in VARS}
    for d, m, n in POINTS:
        x = inputs(d, m, n)
        ref = fns["head"](x, -1)
        tt = 0.0 if CPU else graph_ms(lambda: REF[OP](x, -1)) * 1e3
        cells = []
        for v in VARS:
            USED.pop(v, None)
            try:
                out = fns[v](x, -1)
            except Exception as e:  # noqa: BLE001 - a variant that does not compile (shared memory)
                cells.append(f"ERR {e.__class__.__name__}: {str(e)[:80]}")
                continue
            one = fns[v](x[:1].clone(), -1)
            ok = torch.equal(out, ref) and torch.equal(one, out[:1])
            t = 0.0 if CPU else graph_ms(lambda: fns[v](x, -1)) * 1e3
            pct = 0 if CPU else x.numel() * x.element_size() * 2 / (t * 1e-6) / (bw * 1e9) * 100
            cells.append(f"{t:.2f} ({pct:.0f}%)" + ("" if ok else " BITS") + (f" [{USED[v]}]" if v in USED and CPU else ""))
        print(f"| {OP} {d} {m} x {n} | {tt:.2f} | " + " | ".join(cells) + " |", flush=True)
