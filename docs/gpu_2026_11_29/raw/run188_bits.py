"""Run 188: every generated cuda op, imported directly (the Python replay, no C++ binding), on the
GPU: its replay on new data against its general path (bits), split and fused, and inside a CUDA
graph captured on the replay path and replayed on new data. The calls are tests/test_replay.py's."""
import ast
import importlib
import sys
from pathlib import Path

import torch

sys.path.insert(0, ".")
src = Path("tests/test_replay.py").read_text()
tree = ast.parse(src)
keep = [n for n in tree.body if (isinstance(n, ast.FunctionDef) and n.name in ("_g", "_x", "_t"))
        or (isinstance(n, ast.Assign) and any(getattr(t, "id", "") in ("CALLS", "PATHS") for t in n.targets))]
ns = {"torch": torch}
exec(compile(ast.Module(body=keep, type_ignores=[]), "calls", "exec"), ns)
CALLS, PATHS = ns["CALLS"], ns["PATHS"]


def cuda(v):
    return v.cuda() if isinstance(v, torch.Tensor) else v


def maker(make, kw):
    return (lambda s: tuple(cuda(a) for a in make(s))), {k: cuda(v) for k, v in kw.items()}


def outs(r):
    return r if isinstance(r, tuple) else (r,)


def same(a, b):
    a, b = outs(a), outs(b)
    return len(a) == len(b) and all(x.shape == y.shape and x.stride() == y.stride() and torch.equal(x, y)
                                    for x, y in zip(a, b))


def general(mod, fn, args, kw):
    keep, mod._record = mod._record, (lambda key, run, a: run(*a))
    try:
        mod._PLANS.clear()
        return fn(*args, **kw)
    finally:
        mod._record = keep


def graph_ok(mod, fn, make, kw):
    args = make(2)
    fn(*args, **kw)  # recorded on these tensors' signature
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn(*args, **kw)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = fn(*args, **kw)
    for a, b in zip(args, make(3)):
        if isinstance(a, torch.Tensor):
            a.copy_(b)
    g.replay()
    torch.cuda.synchronize()
    return same(out, general(mod, fn, args, kw))


print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {__import__('triton').__version__}")
print("| op | path | plans | launches | workspaces | replay == general (bits) | CUDA graph == eager (bits) |")
print("|---|---|---|---|---|---|---|")
bad = 0
for op, (make0, kw0) in sorted(CALLS.items()):
    mod = importlib.import_module(f"generated.cuda.{op}")
    assert mod._FAST is None and isinstance(mod._KNOB_GEN, int), op
    fn = getattr(mod, op)
    make, kw = maker(make0, kw0)
    short = getattr(mod, "SHORT_MAX", None)
    for path in ("split", "fused") if hasattr(mod, "SPLIT_BELOW") else ("default",):
        if short is not None:
            mod.SHORT_MAX = 0
        below = getattr(mod, "SPLIT_BELOW", None)
        if below is not None:
            mod.SPLIT_BELOW = PATHS[path]
        try:
            mod._PLANS.clear()
            fn(*make(0), **kw)
            plans = list(mod._PLANS.values())
            args = make(7)
            got = fn(*args, **kw)
            ok = same(got, general(mod, fn, args, kw))
            g = graph_ok(mod, fn, make, kw)
        finally:
            if below is not None:
                mod.SPLIT_BELOW = below
            if short is not None:
                mod.SHORT_MAX = short
        n_l = len(plans[0][5]) if plans else 0
        n_w = len(plans[0][4]) if plans else 0
        bad += (not ok) + (not g) + (len(plans) != 1)
        print(f"| {op} | {path} | {len(plans)} | {n_l} | {n_w} | {ok} | {g} |")
print(f"{bad} failures")
