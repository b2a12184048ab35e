"""Run 244 (a copy of run 238's bench: head against pk, the group walks on 16-bit values). Run 238 (and runs 241-242): argmax or argmin from OP_VARIANT.py beside this script, against torch. Run 238:
head (the modules of 140d2ed) and head+r128 (ROW_MAX_TILES 128 set at run time: rows of up to 32768 held by
the row kernel on the short grids it takes, one launch, where rows past 16384 take the split path's two);
runs 241-242: head and new (the modules as built). Bits: each against torch, row 0 alone against row 0.
GPU time (graphs) and host time a call (h).
    python bench.py warm|time OP VARIANT[,VARIANT] [DTYPE:M:N,...]"""
import importlib.util, sys
from pathlib import Path
import torch
ROOT = Path.cwd()
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import graph_ms, copy_bandwidth, cpu_us  # noqa: E402
MODE, OP, VARS = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
DT = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
P = [("bf16", 16384, 8192), ("bf16", 16384, 16384), ("bf16", 4096, 32000), ("bf16", 1024, 151936),
     ("bf16", 2048, 8192), ("bf16", 1024, 16384), ("bf16", 1024, 32000), ("bf16", 512, 32000), ("bf16", 256, 32000),
     ("bf16", 64, 32000), ("bf16", 256, 151936), ("f32", 16384, 8192), ("f32", 4096, 32000), ("f32", 1024, 32000),
     ("f32", 256, 32000), ("f32", 8, 32000), ("bf16", 8, 32000), ("bf16", 1, 151936)]
POINTS = [(a, int(b), int(c)) for a, b, c in (p.split(":") for p in sys.argv[4].split(","))] if len(sys.argv) > 4 else P


def load(v):
    mod, *knobs = v.split("+")
    s = importlib.util.spec_from_file_location(f"{OP}_{v}", HERE / f"{OP}_{mod}.py")
    m = importlib.util.module_from_spec(s); sys.modules[s.name] = m; s.loader.exec_module(m)
    block = 1
    for k in knobs:
        if k == "u16":
            m.UNROLL = 16
        elif k == "r128":
            m.ROW_MAX_TILES = 128
        elif k.startswith("w"):
            m.ROWS_NARROW_WARPS = int(k[1:])
        elif k in ("b2", "b4"):
            block = int(k[1])
        else:
            raise SystemExit(f"knob {k}?")
    if block > 1:
        orig = m._schedule

        def sched(M, N, K, isz):
            chunk, nch, shape, blk, programs, warps, split, wide = orig(M, N, K, isz)
            if split and shape == "rows":
                blk, programs = block, -(-M // block)
                wide = m._needs_int64(N, M * K, chunk, blk)
            return chunk, nch, shape, blk, programs, warps, split, wide
        m._schedule = sched
    return getattr(m, OP)


def inputs(d, m, n):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[d])
    x[m // 2, n // 3] = float("nan")  # one row with a NaN: its first index wins
    x[-1, 5] = x[-1, n - 7] = 100.0 if OP == "argmax" else -100.0  # a tie: the first index
    if m > 2:
        x[1] = float("-inf") if OP == "argmax" else float("inf")  # a row of the identity: index 0
    return x


if MODE == "warm":
    for v in VARS:
        fn = load(v)
        for d, m, n in POINTS:
            x = inputs(d, m, n); fn(x, -1); fn(x[:1].clone(), -1)
    torch.cuda.synchronize(); print("warm", VARS)
else:
    bw = copy_bandwidth()
    print("device", torch.cuda.get_device_name(), "copy bandwidth %.0f GB/s" % bw, flush=True)
    print("| point | torch us | " + " | ".join(VARS) + " |", flush=True)
    print("|---" * (len(VARS) + 2) + "|", flush=True)
    fns = {v: load(v) for v in VARS}
    for d, m, n in POINTS:
        x = inputs(d, m, n)
        ref = getattr(torch, OP)(x, -1)
        tt = graph_ms(lambda: getattr(torch, OP)(x, -1)) * 1e3
        th = min(cpu_us(lambda: getattr(torch, OP)(x, -1), n=300) for _ in range(3))
        cells = []
        for v in VARS:
            out = fns[v](x, -1)
            one = fns[v](x[:1].clone(), -1)
            ok = torch.equal(out, ref) and torch.equal(one, out[:1])
            t = graph_ms(lambda: fns[v](x, -1)) * 1e3
            pct = x.numel() * x.element_size() / (t * 1e-6) / (bw * 1e9) * 100
            h = min(cpu_us(lambda: fns[v](x, -1), n=300) for _ in range(3))
            cells.append(f"{t:.2f} ({pct:.0f}%) h{h:.1f}" + ("" if ok else " BITS"))
        print(f"| {OP} {d} {m} x {n} | {tt:.2f} h{th:.1f} | " + " | ".join(cells) + " |", flush=True)
