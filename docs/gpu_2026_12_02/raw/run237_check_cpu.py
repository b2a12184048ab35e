"""Run 237, on the CPU interpreter: the tail variant against the module as built, bit for bit (argmax and argmin,
the split and fused paths, rows and cols, tails of 0-7 tiles, a NaN, ties, a row of the identity)."""
import importlib.util, os, sys
os.environ["TRITON_INTERPRET"] = "1"
from pathlib import Path
import torch
HERE = Path(__file__).resolve().parent


def load(name):
    s = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    m = importlib.util.module_from_spec(s); sys.modules[name] = m; s.loader.exec_module(m)
    return m


n_calls = 0
for op in ("argmax", "argmin"):
    head, tl_ = load(f"{op}_head"), load(f"{op}_tl")
    g = torch.Generator().manual_seed(0)
    for dt in (torch.bfloat16, torch.float32):
        for N in (4096 + 256 * 7 + 5, 4096 * 2 + 256 * 13, 4096 + 300, 8192 + 256 * 3, 4096 + 2048, 4096 * 3 + 256 * 6 + 255, 4096 + 1792):
            for shape, dim in (((3, N), -1), ((2, N, 3), 1)):
                x = torch.randn(*shape, generator=g).to(dt)
                x = torch.round(x * 4) / 4  # ties
                if dim == -1:
                    x[0, N - 3] = float("nan"); x[1] = float("-inf") if op == "argmax" else float("inf")
                else:
                    x[0, N - 3, 1] = float("nan"); x[1, :, 2] = float("-inf") if op == "argmax" else float("inf")
                for sb in (0, 10 ** 6):
                    head.SPLIT_BELOW = tl_.SPLIT_BELOW = sb
                    a = getattr(head, op)(x, dim); b = getattr(tl_, op)(x, dim)
                    ref = getattr(torch, op)(x.float(), dim)
                    n_calls += 1
                    assert torch.equal(a, b), (op, dt, N, shape, sb, a, b)
                    assert torch.equal(a, ref), (op, dt, N, shape, sb, a, ref)
print("equal at", n_calls, "calls")
