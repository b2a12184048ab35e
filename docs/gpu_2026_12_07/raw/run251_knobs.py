"""Run 251: launch knobs (none shapes an order) of the row kernels at the points run 249 left behind
Liger-Kernel, on an H100: each variant's output bit for bit against the shipped module's, GPU time from
CUDA graphs (median), Liger's beside. Variants are copies of the generated module with knobs set.
Ran as `quick` (run 252, beside run 250's decode), `wider` (run 253) and `last` (run 254): subsets of the
points and variants; with no argument, all of them (not run: the device's time). `bound` (run 255, on an H100,
docs/gpu_2026_12_08/README.md): the modules of dec5005 against the prefetch turned back on past ROW_PREFETCH_MAX
(then 24576). `bound2` (prepared, not run: the device's time): seven chunks for the ops run 255 left untimed."""
import importlib.util
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path.cwd() / "benchmarks"))
from gpu_run import graph_ms  # noqa: E402

BIG = 1 << 40
LONG = {  # softmax/log_softmax bf16 rows of 32000: the across form, 8 chunks, 16 warps, prefetch one wave on
    "lanes2": {"ROW_ACROSS_LANES": 2},  # 32 warps, 4-byte loads
    "lanes8": {"ROW_ACROSS_LANES": 8},  # 8 warps, 16-byte loads
    "nopf": {"ROW_PREFETCH_MIN": BIG},
    "pf2": {"ROW_PREFETCH_AHEAD": 2},
    "lanes2_nopf": {"ROW_ACROSS_LANES": 2, "ROW_PREFETCH_MIN": BIG},
    "lanes8_nopf": {"ROW_ACROSS_LANES": 8, "ROW_PREFETCH_MIN": BIG},
}
SHORT = {  # rows of 4096-8192 on short grids: the row kernel in 4 warps, or across (8192: 2 chunks, 4 warps)
    "few8": {"ROW_FEW_WARPS": 8},
    "few2": {"ROW_FEW_WARPS": 2, "ROW_WARP_LANES": 256},
    "across2": {"ROW_ACROSS_LANES": 2},
    "across1": {"ROW_ACROSS_LANES": 1},
    "wl64": {"ROW_WARP_LANES": 64},  # the row kernel on long grids: a warp a 64 lanes (2 -> 4 warps at 4096)
    "wl32": {"ROW_WARP_LANES": 32},
}
POINTS = [
    ("softmax_held", "bf16", 256, 32000, LONG), ("softmax_held", "bf16", 4096, 32000, LONG),
    ("softmax_held", "bf16", 16384, 32000, LONG), ("log_softmax_held", "bf16", 4096, 32000, LONG),
    ("log_softmax_held", "bf16", 16384, 32000, LONG),
    ("layer_norm", "bf16", 1, 4096, SHORT), ("layer_norm", "bf16", 256, 4096, SHORT),
    ("add_rms_norm", "bf16", 1, 4096, SHORT), ("add_rms_norm", "bf16", 256, 4096, SHORT),
    ("add_rms_norm", "bf16", 256, 8192, SHORT), ("add_rms_norm", "f32", 32, 8192, SHORT),
    ("softmax_held", "bf16", 32, 4096, SHORT), ("softmax_held", "bf16", 256, 8192, SHORT),
    ("rms_norm", "f32", 32, 4096, SHORT), ("layer_norm", "bf16", 16384, 4096, SHORT),
]
if sys.argv[1:] == ["quick"]:  # what one call beside run 250 leaves time for
    LONG = {k: LONG[k] for k in ("lanes2", "lanes8", "nopf", "lanes2_nopf")}
    SHORT = {k: SHORT[k] for k in ("few8", "across2", "across1", "wl64")}
    POINTS = [("softmax_held", "bf16", 4096, 32000, LONG), ("softmax_held", "bf16", 16384, 32000, LONG),
              ("log_softmax_held", "bf16", 16384, 32000, LONG), ("add_rms_norm", "bf16", 256, 8192, SHORT),
              ("layer_norm", "bf16", 1, 4096, SHORT), ("layer_norm", "bf16", 16384, 4096, SHORT)]
if sys.argv[1:] == ["wider"]:  # run 253: the two winners of run 252 at more points
    PF, AC = {"nopf": LONG["nopf"]}, {"across2": SHORT["across2"]}
    POINTS = [*((op, "bf16", m, n, PF) for op in ("softmax_held", "layer_norm", "rms_norm")
                for m, n in ((1024, 32000), (4096, 20000), (4096, 24576), (16384, 20000), (4096, 32000))),
              ("log_softmax_held", "bf16", 4096, 20000, PF),
              *((op, dt, m, n, AC) for op in ("add_rms_norm", "rms_norm", "layer_norm", "softmax_held")
                for dt, m, n in (("bf16", 32, 8192), ("bf16", 256, 8192), ("f32", 32, 8192), ("f32", 256, 8192),
                                 ("bf16", 32, 16384), ("bf16", 256, 16384), ("f32", 32, 16384), ("bf16", 4096, 8192)))]
if sys.argv[1:] == ["last"]:  # run 254: what run 253 left out, in the device's last minutes
    PF, AC = {"nopf": LONG["nopf"]}, {"across2": SHORT["across2"]}
    POINTS = [("layer_norm", "bf16", 4096, 32000, PF), ("add_rms_norm", "bf16", 32, 8192, AC),
              ("add_rms_norm", "f32", 32, 8192, AC), ("add_rms_norm", "bf16", 256, 16384, AC),
              ("rms_norm", "bf16", 4096, 32000, PF), ("softmax_held", "bf16", 4096, 24576, PF)]
if sys.argv[1:] == ["bound"]:  # run 255: the prefetch past ROW_PREFETCH_MAX (24576) where runs 252-254 timed none
    ON = {"prefetch": {"ROW_PREFETCH_MAX": BIG}}
    POINTS = [("softmax_held", "bf16", 256, 32000, ON), ("softmax_held", "bf16", 4096, 28000, ON),
              ("softmax_held", "bf16", 16384, 32000, ON), ("log_softmax_held", "bf16", 4096, 28000, ON),
              ("fp8_quant", "bf16", 4096, 32000, ON), ("rms_norm_rstd", "bf16", 4096, 32000, ON),
              ("rms_norm", "bf16", 16384, 32000, ON), ("layer_norm", "bf16", 16384, 32000, ON)]
if sys.argv[1:] == ["bound2"]:  # prepared, not run: seven chunks (28000) where run 255 timed only softmax's; fp8 at 32000
    ON = {"prefetch": {"ROW_PREFETCH_MAX": BIG}}
    POINTS = [("rms_norm", "bf16", 4096, 28000, ON), ("layer_norm", "bf16", 4096, 28000, ON),
              ("rms_norm_rstd", "bf16", 4096, 28000, ON), ("softmax_held", "bf16", 16384, 28000, ON),
              ("rms_norm", "bf16", 16384, 28000, ON), ("layer_norm", "bf16", 16384, 28000, ON),
              ("fp8_quant", "bf16", 16384, 32000, ON), ("fp8_quant_e5m2", "bf16", 4096, 32000, ON),
              ("fp8_quant", "bf16", 4096, 28000, ON), ("softmax_held", "bf16", 4096, 30000, ON)]
DT = {"f32": torch.float32, "bf16": torch.bfloat16}
_n = [0]


def copy_of(op, knobs):
    _n[0] += 1
    spec = importlib.util.spec_from_file_location(f"v{_n[0]}_{op}", f"generated/cuda/{op}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for k, v in knobs.items():
        assert hasattr(mod, k), (op, k)
        setattr(mod, k, v)
    return getattr(mod, op)


def liger(op):
    try:
        from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction as A
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction as L
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction as R
        from liger_kernel.ops.softmax import LigerSoftmaxFunction as S
    except ImportError:
        return None
    return {"softmax_held": lambda x, *_: S.apply(x), "rms_norm": lambda x, w: R.apply(x, w, 1e-6, 0.0, "llama", False),
            "layer_norm": lambda x, w, b: L.apply(x, w, b, 1e-5),
            "add_rms_norm": lambda x, r, w: A.apply(x, r, w, 1e-6, 0.0, "llama", False)[0]}.get(op)


def args(op, dt, m, n):
    g = torch.Generator("cuda").manual_seed(m + n)
    x = torch.randn(m, n, device="cuda", generator=g).to(DT[dt])
    w = (1 + 0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    b = (0.1 * torch.randn(n, device="cuda", generator=g)).to(DT[dt])
    return {"softmax_held": (x, -1), "log_softmax_held": (x, -1), "rms_norm": (x, w), "layer_norm": (x, w, b),
            "fp8_quant": (x, -1), "fp8_quant_e5m2": (x, -1), "rms_norm_rstd": (x, w),
            "add_rms_norm": (x, torch.randn_like(x), w)}[op]


def same(a, b):
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    bits = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}  # fp8_quant's bytes too
    return all(torch.equal(p.view(bits[p.element_size()]), q.view(bits[q.element_size()]))
               for p, q in zip(a, b, strict=True))


print("device", torch.cuda.get_device_name(), flush=True)
t0 = time.time()
for op, dt, m, n, variants in POINTS:
    a = args(op, dt, m, n)
    base = copy_of(op, {})
    want = base(*a)
    line = {"base": graph_ms(lambda: base(*a)) * 1e3}
    bad = []
    for name, knobs in variants.items():
        f = copy_of(op, knobs)
        if not same(f(*a), want):
            bad.append(name)
        line[name] = graph_ms(lambda: f(*a)) * 1e3  # noqa: B023
    lg = liger(op)
    if lg is not None:
        line["liger"] = graph_ms(lambda: lg(*a)) * 1e3
    best = min((v, k) for k, v in line.items() if k != "liger")
    print(f"{op} {dt} {m}x{n}: " + " ".join(f"{k} {v:.2f}" for k, v in line.items())
          + f" | best {best[1]} | bits differ: {bad or 'none'} | {time.time() - t0:.0f}s", flush=True)
