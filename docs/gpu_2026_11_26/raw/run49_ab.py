"""A/B in one process: each direct call with its module's C++ replay bound and unbound, and
torch's op in the mode with the C++ route and the Python route, rounds alternated."""
import functools, os, sys
sys.path.insert(0, "benchmarks")
import torch
import redgen
from host_time import cases, _mod, DIRECT, _torch_call
from gpu_run import cpu_us

print(torch.cuda.get_device_name())
print("| call | torch | direct, C++ replay | direct, Python replay | mode, C++ route | mode, Python route |")
print("|---|---|---|---|---|---|")
for name, op, make, kw, ref in cases():
    mod = _mod(op)
    fn = DIRECT[op](mod) if op in DIRECT else getattr(mod, op)
    args = make(0)
    fn(*args, **kw); fn(*args, **kw)
    bound = mod._FAST
    short = mod._short_module() if hasattr(mod, "_short_module") else None
    sbound = getattr(short, "_FAST", None)
    best = {k: float("inf") for k in ("torch", "cpp", "py", "mcpp", "mpy")}
    call = functools.partial(fn, *args, **kw)
    for _ in range(7):
        best["torch"] = min(best["torch"], cpu_us(_torch_call(ref, args, kw), 2000))
        for k, b in (("cpp", bound), ("py", None)):
            mod._FAST = b
            if short is not None:
                short._FAST = sbound if b is not None else None
            best[k] = min(best[k], cpu_us(call, 2000))
        mod._FAST = bound
        if short is not None:
            short._FAST = sbound
        for k, env in (("mcpp", "1"), ("mpy", "0")):
            os.environ["REDGEN_FAST_ROUTE"] = env
            with redgen.batch_invariant():
                best[k] = min(best[k], cpu_us(_torch_call(ref, args, kw), 2000))
    print(f"| {name} | {best['torch']:.1f} | {best['cpp']:.1f} | {best['py']:.1f} | {best['mcpp']:.1f} | {best['mpy']:.1f} |")
