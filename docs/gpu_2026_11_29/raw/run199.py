"""Run 199: the fused rows walks' output sweep in ROWS_OUT_STAGES stages (16-bit rows of several chunks),
as built: the new modules against the modules before the change (HEAD~, carried in _scratch/r199/old) and
torch. Bits new == old at every point, row 0 alone == row 0 in the batch, GPU time."""
import sys, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "benchmarks")
sys.path.insert(0, "_scratch/r199")  # old/: each generated/cuda/<op>.py of the commit before (git show)
from gpu_run import graph_ms, copy_bandwidth
F = torch.nn.functional


def mods(op):
    return importlib.import_module(f"generated.cuda.{op}"), importlib.import_module(f"old.{op}")


print(f"device: {torch.cuda.get_device_name()}")
bw = copy_bandwidth()
print(f"copy bandwidth {bw:.0f} GB/s")
bf = torch.bfloat16
POINTS = [
    ("softmax", bf, 4096, 151936), ("softmax", bf, 2048, 151936), ("softmax", bf, 16384, 65536),
    ("softmax", bf, 1024, 151936), ("softmax", torch.float32, 4096, 151936),
    ("log_softmax", bf, 4096, 151936), ("log_softmax", bf, 2048, 151936),
    ("rms_norm", bf, 2048, 65536), ("layer_norm", bf, 2048, 65536), ("add_rms_norm", bf, 2048, 65536),
    ("fp8_quant", bf, 4096, 65536),
]
for op, dt, M, N in POINTS:
    new, old = mods(op)
    x = torch.randn(M, N, device="cuda").to(dt)
    w = torch.randn(N, device="cuda").to(dt)
    b = torch.randn(N, device="cuda").to(dt)
    r = torch.randn(M, N, device="cuda").to(dt)
    call = {
        "softmax": (lambda m, x: m.softmax(x, 1), lambda: torch.softmax(x, 1)),
        "log_softmax": (lambda m, x: m.log_softmax(x, 1), lambda: torch.log_softmax(x, 1)),
        "rms_norm": (lambda m, x: m.rms_norm(x, w), lambda: F.rms_norm(x, [N], w, 1e-6)),
        "layer_norm": (lambda m, x: m.layer_norm(x, w, b), lambda: F.layer_norm(x, [N], w, b, 1e-5)),
        "add_rms_norm": (lambda m, x: m.add_rms_norm(x, r[: x.shape[0]], w), lambda: F.rms_norm(x + r, [N], w, 1e-6)),
        "fp8_quant": (lambda m, x: m.fp8_quant(x), lambda: x.abs().amax(1)),
    }[op]
    f, ref = call
    yn, yo = f(new, x), f(old, x)
    outs = lambda y: y if isinstance(y, tuple) else (y,)
    same = all(torch.equal(a.view(torch.uint8) if a.dtype.itemsize == 1 else a, c.view(torch.uint8) if c.dtype.itemsize == 1 else c)
               for a, c in zip(outs(yn), outs(yo)))
    alone = outs(f(new, x[:1]))
    inv = all(torch.equal((a.view(torch.uint8) if a.dtype.itemsize == 1 else a)[:1], c.view(torch.uint8) if c.dtype.itemsize == 1 else c)
              for a, c in zip(outs(yn), alone))
    tn, to = graph_ms(lambda: f(new, x)), graph_ms(lambda: f(old, x))
    tt = graph_ms(ref)
    sched = new._schedule(M, N, 1, x.element_size())
    print(f"{op} {str(dt)[6:]} {M}x{N} ({sched[2]}, {'split' if sched[6] else 'fused'}): new {tn*1e3:.1f} us, before {to*1e3:.1f} "
          f"({to/tn:.3f}x), torch {tt*1e3:.1f}; bits new == before {same}; row 0 alone == in batch {inv}", flush=True)
    del x, r, yn, yo
