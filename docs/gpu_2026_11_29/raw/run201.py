"""Run 201: the replay key's current device from torch._C._cuda_getDevice (templates/cuda/replay.py.j2
_device) against torch.cuda.current_device(): each alone, then direct calls of the new modules against
the commit before's (carried in _scratch/r201/old), fastest of 5 batches of 2000 calls, interleaved."""
import sys, time, importlib
import torch
sys.path.insert(0, ".")
sys.path.insert(0, "_scratch/r201")


def us(fn, n=2000, reps=5):
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
        torch.cuda.synchronize()
    return best


print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
torch.zeros(1, device="cuda")
print(f"torch.cuda.current_device() {us(torch.cuda.current_device, 20000):.3f} us, "
      f"torch._C._cuda_getDevice() {us(torch._C._cuda_getDevice, 20000):.3f} us")
x64 = torch.randn(64, 4096, device="cuda")
w, b = torch.randn(4096, device="cuda"), torch.randn(4096, device="cuda")
s32 = torch.randn(8, 32000, device="cuda").to(torch.bfloat16)
CASES = [("mean 64x4096 f32", "mean", lambda m: m.mean(x64, -1), lambda: torch.mean(x64, -1)),
         ("layer_norm 64x4096 f32", "layer_norm", lambda m: m.layer_norm(x64, w, b), lambda: torch.nn.functional.layer_norm(x64, [4096], w, b)),
         ("softmax 8x32000 bf16", "softmax", lambda m: m.softmax(s32, -1), lambda: torch.softmax(s32, -1))]
for name, op, f, ref in CASES:
    new, old = importlib.import_module(f"generated.cuda.{op}"), importlib.import_module(f"old.{op}")
    assert all(torch.equal(a, c) for a, c in zip(*(o if isinstance(o, tuple) else (o,) for o in (f(new), f(old)))))
    rows = {"new": [], "before": [], "torch": []}
    for _ in range(3):
        rows["new"].append(us(lambda: f(new)))
        rows["before"].append(us(lambda: f(old)))
        rows["torch"].append(us(ref))
    n, o, t = (min(v) for v in rows.values())
    print(f"{name}: new {n:.2f} us, before {o:.2f} ({o - n:+.2f}), torch {t:.2f}; new - torch {n - t:+.2f}, before - torch {o - t:+.2f}")
