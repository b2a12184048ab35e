"""Run 91: rows (K == 1) of at most 128 elements, the shipped modules against torch (a measurement)."""
import importlib
import torch, triton

def t(fn):
    return triton.testing.do_bench_cudagraph(fn, rep=30) * 1e3

OPS = {
    "sum": (lambda f, x: f(x, -1), lambda x: torch.sum(x, -1)),
    "amax": (lambda f, x: f(x, -1), lambda x: torch.amax(x, -1)),
    "argmax": (lambda f, x: f(x, -1), lambda x: torch.argmax(x, -1)),
    "logsumexp": (lambda f, x: f(x, -1), lambda x: torch.logsumexp(x, -1)),
    "softmax": (lambda f, x: f(x, -1), lambda x: torch.softmax(x, -1)),
    "rms_norm": (lambda f, x: f(x, torch.ones(x.shape[-1], device=x.device, dtype=x.dtype)),
                 lambda x: torch.nn.functional.rms_norm(x, (x.shape[-1],), torch.ones(x.shape[-1], device=x.device, dtype=x.dtype))),
}
print(torch.cuda.get_device_name(), flush=True)
print("| op | dtype | M x N | torch us | redgen us |")
for name, (call, tcall) in OPS.items():
    f = getattr(importlib.import_module(f"generated.cuda.{name}"), name)
    for dt in (torch.bfloat16, torch.float32):
        for M, N in ((1024, 8), (16384, 8), (1024, 64), (16384, 64), (65536, 64), (16384, 128), (65536, 128)):
            x = torch.randn(M, N, device="cuda", dtype=dt)
            print(f"| {name} | {str(dt)[6:]} | {M} x {N} | {t(lambda: tcall(x)):.1f} | {t(lambda: call(f, x)):.1f} |", flush=True)
