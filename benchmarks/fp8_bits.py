"""fp8_quant and fp8_quant_e5m2 on a GPU against torch's float32 computation, byte for byte.

    python benchmarks/fp8_bits.py [--module PATH ...] [--points 4096x4096,4096x32000] [--dtypes bf16,f32]

torch's side is the spec's formula in float32 (x.float() / scale, clamped, cast; scale = max(absmax /
fp8_max, min_scale)). Each differing byte is counted in one of three classes: a zero whose sign
differs (-0 against +0), a neighbour on the fp8 grid (one code apart: the quotient on the other side
of a rounding midpoint), anything else. The scale is compared too, and row 0 alone against row 0 in
the batch. Then the GPU time (CUDA graphs, median) of each module and of torch's five kernels, and the
bytes moved against the copy bandwidth measured in the same run. Run 214 (docs/ops.md) counted
differing bytes that fit zeros of the other sign and, about once in 10^7 elements, neighbours
(Triton's `/` is div.full.f32); run 216, with the cuda helper's byte computed in integers, only
neighbours, and the "other" class caught stop 60's faulty kernel (0xfc at odd elements).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from gpu_run import DT, copy_bandwidth, graph_ms, load  # noqa: E402

FORMATS = {"fp8_quant": (torch.float8_e4m3fn, 448.0), "fp8_quant_e5m2": (torch.float8_e5m2, 57344.0)}


def reference(x: torch.Tensor, fp8: torch.dtype, fmax: float) -> tuple[torch.Tensor, torch.Tensor]:
    xf = x.float()
    s = torch.clamp(xf.abs().amax(-1, keepdim=True) / fmax, min=1.0 / (fmax * 512))
    return (xf / s).clamp(-fmax, fmax).to(fp8), s


def classes(q: torch.Tensor, want: torch.Tensor) -> tuple[int, int, int]:
    """(zeros of the other sign, grid neighbours, other) among the bytes of q that differ from want's."""
    a, b = q.view(torch.uint8).int(), want.view(torch.uint8).int()
    diff = a != b
    zero = diff & ((a & 0x7F) == 0) & ((b & 0x7F) == 0)
    near = diff & ~zero & ((a & 0x80) == (b & 0x80)) & ((a - b).abs() == 1)
    return int(zero.sum()), int(near.sum()), int((diff & ~zero & ~near).sum())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", action="append", type=Path, help="a generated module (default: both shipped)")
    ap.add_argument("--points", default="4096x4096,4096x32000,16384x8192,1x4096", help="rows x N, comma-separated")
    ap.add_argument("--dtypes", default="bf16,f32")
    opts = ap.parse_args()
    paths = opts.module or [ROOT / "generated" / "cuda" / f"{op}.py" for op in FORMATS]
    print("device", torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s\n", flush=True)
    print("| module | point | differing bytes: sign of zero / grid neighbour / other | scale | row 0 alone "
          "| us (% copy) | torch us |", flush=True)
    print("|---|---|---|---|---|---|---|", flush=True)
    bad = 0
    for path in paths:
        mod = load(path)
        op = next(name for name in FORMATS if hasattr(mod, name) and path.stem.startswith(name))
        fn, (fp8, fmax) = getattr(mod, op), FORMATS[op]
        for dt in opts.dtypes.split(","):
            for point in opts.points.split(","):
                m, n = (int(v) for v in point.split("x"))
                g = torch.Generator(device="cuda").manual_seed(m * 7 + n)
                x = (torch.randn(m, n, device="cuda", generator=g) * 3).to(DT[dt])
                q, s = fn(x)
                rq, rs = reference(x, fp8, fmax)
                zero, near, other = classes(q, rq)
                scale_ok = torch.equal(s, rs)
                alone = torch.equal(fn(x[:1].clone())[0].view(torch.uint8), q[:1].view(torch.uint8))
                bad += other + (not scale_ok) + (not alone)
                t = graph_ms(lambda fn=fn, x=x: fn(x)) * 1e3
                tt = graph_ms(lambda x=x, fp8=fp8, fmax=fmax: reference(x, fp8, fmax)) * 1e3
                moved = x.numel() * (x.element_size() + 1) + 4 * m
                print(f"| {path.name} | {dt} {m} x {n} | {zero} / {near} / {other} of {x.numel()} | "
                      f"{'equal' if scale_ok else 'DIFFERS'} | {'equal' if alone else 'DIFFERS'} | "
                      f"{t:.2f} ({moved / (t * 1e-6) / 1e9 / bw * 100:.0f}%) | {tt:.2f} |", flush=True)
    print(f"\nbytes other than zeros' signs and grid neighbours, scales or rows alone that differ: {bad}")


if __name__ == "__main__":
    main()
