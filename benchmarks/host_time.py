"""Host time per call of the generated launchers, replayed and not, against torch, on a GPU.

    PYTHONPATH=. python benchmarks/host_time.py [--json out.json] [--only argmax,softmax]

Issue 12's "cheap to call": for each op at a decode-like size, the host time per call
(`cpu_us`: calls back to back, one sync) of torch's op, the generated launcher imported directly
(a repeated signature is replayed: from C++, which the module binds at its first recorded call as
redgen.load binds it, and in Python as it replays without redgen or with REDGEN_FAST_ROUTE=0,
`_replayed` in templates/cuda/replay.py.j2), its general path
(`_run`, what every call paid before), and torch's op inside `redgen.batch_invariant()`, its
replayable routes in C++ (redgen/runtime/fast_route.py) and in Python (REDGEN_FAST_ROUTE=0);
the C++ route's result is checked bitwise against the Python route's, and in a CUDA graph.
Before timing, each op's replayed result is checked bitwise against its general path on
new data, and inside a CUDA graph captured on the replay path and replayed on new data.
Prints one table; --json keeps the rows.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import json
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_run import cpu_us  # noqa: E402


def _mod(op):
    """The module as `from generated.cuda.<op> import <op>` leaves it (redgen.load's is the same object)."""
    return importlib.import_module(f"generated.cuda.{op}")


def cases():
    """(name, generated op, arguments from a seed, torch's equivalent of the same call)."""
    fn = torch.nn.functional
    bf, f32 = torch.bfloat16, torch.float32

    def rnd(*shape, dtype=f32, seed=0):
        return torch.randn(*shape, generator=torch.Generator("cuda").manual_seed(seed), device="cuda").to(dtype)

    w4k, b4k = rnd(4096, seed=9), rnd(4096, seed=10)
    wt = rnd(2048, 2048, dtype=bf, seed=11)
    return [
        ("mean 64x4096 f32", "mean", lambda s: (rnd(64, 4096, seed=s), -1), {}, lambda x, d: torch.mean(x, d)),
        ("mean 8x2048 bf16 keepdim", "mean", lambda s: (rnd(8, 1, 2048, dtype=bf, seed=s), -1, True), {},
         lambda x, d, k: torch.mean(x, d, keepdim=k)),
        ("rms_norm 64x4096 f32", "rms_norm", lambda s: (rnd(64, 4096, seed=s), w4k), {"eps": 1e-6},
         lambda x, w, eps: fn.rms_norm(x, [4096], w, eps)),
        ("layer_norm 64x4096 f32", "layer_norm", lambda s: (rnd(64, 4096, seed=s), w4k, b4k), {"eps": 1e-5},
         lambda x, w, b, eps: fn.layer_norm(x, [4096], w, b, eps)),
        ("softmax 8x32000 bf16", "softmax", lambda s: (rnd(8, 32000, dtype=bf, seed=s), -1), {},
         lambda x, d: torch.softmax(x, d)),
        ("argmax 8x32000 bf16", "argmax", lambda s: (rnd(8, 32000, dtype=bf, seed=s), -1), {},
         lambda x, d: torch.argmax(x, d)),
        # rows the row kernel holds (one launch): a greedy step's argmax over a short vocabulary
        ("argmax 8x8192 bf16", "argmax", lambda s: (rnd(8, 8192, dtype=bf, seed=s), -1), {},
         lambda x, d: torch.argmax(x, d)),
        ("matmul 8x2048x2048 bf16", "matmul", lambda s: (rnd(8, 2048, dtype=bf, seed=s), wt.t()), {},
         lambda a, b: a @ b),
        # a decode step as Hugging Face's sdpa attention makes it: 8 sequences, 16 query heads over
        # 4 KV heads of 128, 700 cached keys, [B, heads, L, D] tensors (redgen's heads_first layout)
        ("attention decode 8x16/4x700 bf16", "attention",
         lambda s: (rnd(8, 16, 1, 128, dtype=bf, seed=s), rnd(8, 4, 700, 128, dtype=bf, seed=s + 20),
                    rnd(8, 4, 700, 128, dtype=bf, seed=s + 40)), {},
         lambda q, k, v: fn.scaled_dot_product_attention(q, k, v, enable_gqa=True)),
    ]


# Launchers whose public call is not the torch op's argument list: attention takes SDPA's layout
# ([B, heads, L, D]) with heads_first=True, and returns its output in it (the same bits as its
# flash-layout call on transposed views; four view ops of host time fewer than making them). Its
# dense calls are bound by their geometry, the key length left out (a decode step's grows every
# call); its general path is `_run`, given flash-layout views.
DIRECT = {
    "attention": lambda mod: lambda q, k, v: mod.attention(q, k, v, causal=False, heads_first=True),
}
GENERAL = {
    "attention": lambda mod: lambda q, k, v: mod._run(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                      False, None, None, None, None, None, False).transpose(1, 2),
}


def decode_check() -> str:
    """A decode as a model runs it: the key length grows by one a step (a new cache tensor each
    step, as Hugging Face's), both attention paths; each step's result against the general path."""
    from redgen.runtime.loader import load

    mod = importlib.import_module(load("attention", "cuda").__module__)  # bound, as redgen.load leaves it
    gen = torch.Generator("cuda").manual_seed(5)
    q = torch.randn(8, 1, 16, 128, generator=gen, device="cuda").to(torch.bfloat16)
    cache = torch.randn(2, 8, 4, 800, 128, generator=gen, device="cuda").to(torch.bfloat16)
    def step_ok(n):
        k, v = (cache[i, :, :, :n].contiguous().transpose(1, 2) for i in range(2))
        want = mod._run(q, k, v, True, None, None, None, None, None, True)
        # The flash layout, and as the mode's adapters call it (torch's [B, heads, L, D] tensors,
        # results likewise); each call twice, as a step's layers make it: the module bound (as
        # redgen.load leaves it), the second is replayed from the plan the first handed over (run
        # 245: that plan kept its geometry's first chunk count, and replays past it differed).
        ok = True
        for _ in range(2):
            heads_first = mod.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=True,
                                        return_lse=True, heads_first=True)
            ok = ok and (_equal(mod.attention(q, k, v, causal=True, return_lse=True), want)
                         and _equal(heads_first, tuple(x.transpose(1, 2) for x in want)))
        return ok

    said = []
    for name, below in (("split", 1 << 62), ("fused", 0)):
        keep, mod.SPLIT_BELOW = mod.SPLIT_BELOW, below
        try:
            # chunks of 256: 500..529 keys cross from two to three, 760..779 from three to four
            ok = all(step_ok(n) for n in (*range(500, 530), *range(760, 780)))
        finally:
            mod.SPLIT_BELOW = keep
        said.append(f"{name} {ok}")
    return ("attention decode, 500..529 and 760..779 keys, each step == general path, a call and its repeat "
            "(bits; flash layout and heads first): "
            + ", ".join(said))


def _torch_call(ref, args, kw):
    return lambda: ref(*args, *kw.values())


def _torch_call_fn(ref):
    """`ref` as a launcher is called (keywords by name), for _graph."""
    return lambda *args, **kw: ref(*args, *kw.values())


@contextlib.contextmanager
def _route(which):
    """The mode's replayable routes in C++ ("cpp", fast_route.py) or in Python, for one enable()."""
    keep = os.environ.get("REDGEN_FAST_ROUTE")
    os.environ["REDGEN_FAST_ROUTE"] = "1" if which == "cpp" else "0"
    try:
        yield
    finally:
        if keep is None:
            del os.environ["REDGEN_FAST_ROUTE"]
        else:
            os.environ["REDGEN_FAST_ROUTE"] = keep


def main() -> None:
    import redgen

    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=None)
    ap.add_argument("--only", default=None, metavar="WORDS",
                    help="time only the calls whose name contains one of these comma-separated words")
    opts = ap.parse_args()
    only = None if opts.only is None else [w.strip() for w in opts.only.split(",") if w.strip()]
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {__import__('triton').__version__}")
    rows, todo = [], [c for c in cases() if only is None or any(w in c[0] for w in only)]
    # Each module's first call, imported directly, before the mode or redgen.load touches it:
    # whether that call bound it to the C++ replay itself (templates/cuda/replay.py.j2 `_bind_fast`).
    self_bound = {}
    for name, op, make, kw, _ in todo:
        mod = _mod(op)
        was = mod._FAST is not None
        (DIRECT[op](mod) if op in DIRECT else getattr(mod, op))(*make(0), **kw)  # compiles and records
        # (a call of short rows runs the module its `short` statement names, which records and binds)
        short = getattr(mod, "_short_module", lambda: None)()
        if was:
            self_bound[name] = "before"
        elif mod._FAST is not None:
            self_bound[name] = True
        elif getattr(short, "_FAST", None) is not None:
            self_bound[name] = f"its short op's ({short.__name__.rsplit('.', 1)[-1]})"
        else:
            self_bound[name] = False
    for name, op, make, kw, ref in todo:
        mod = _mod(op)
        fn = DIRECT[op](mod) if op in DIRECT else getattr(mod, op)
        args = make(0)
        fn(*args, **kw)  # replayed (recorded above)
        args2 = make(1)
        replayed = fn(*args2, **kw)
        general = GENERAL[op](mod)(*args2) if op in GENERAL else mod._run(*_run_args(mod, op, args2, kw))
        same = _equal(replayed, general)
        graph_ok = _graph(fn, make, kw)
        t_torch = min(cpu_us(_torch_call(ref, args, kw), 2000) for _ in range(5))
        t_replay = min(cpu_us(functools.partial(fn, *args, **kw), 2000) for _ in range(5))
        general_fn = (functools.partial(GENERAL[op](mod), *args) if op in GENERAL else
                      functools.partial(mod._run, *_run_args(mod, op, args, kw)))
        t_general = min(cpu_us(general_fn, 2000) for _ in range(5))
        # The Python replay: the module without its C++ binding (no redgen, or REDGEN_FAST_ROUTE=0).
        # Its replay on new data against the general path, in a CUDA graph too (its workspaces come
        # from one buffer a call), and its time.
        fast, mod._FAST = mod._FAST, None
        try:
            mod._PLANS.clear()
            fn(*args, **kw)  # recorded
            py_same = _equal(fn(*args2, **kw), general)
            py_graph = _graph(fn, make, kw)
            t_python = min(cpu_us(functools.partial(fn, *args, **kw), 2000) for _ in range(5))
        finally:
            mod._FAST = fast
        # The mode, its replayable routes in C++ (fast_route.py) and in Python: times, and the C++
        # route's result (a served plan: the signature was seen while timing) against Python's.
        mode_out, t_mode = {}, {}
        for route in ("cpp", "python"):
            with _route(route), redgen.batch_invariant():
                t_mode[route] = min(cpu_us(_torch_call(ref, args, kw), 2000) for _ in range(5))
                mode_out[route] = ref(*args2, *kw.values())
                if route == "cpp":
                    mode_graph = _graph(_torch_call_fn(ref), make, kw)
        rows.append(dict(case=name, bound_by_its_first_call=self_bound[name], bitwise_replay_eq_general=same, graph_replay_eq_eager=graph_ok,
                         torch_us=t_torch, redgen_us=t_replay, general_path_us=t_general, mode_us=t_mode["cpp"],
                         python_replay_us=t_python, bitwise_python_replay_eq_general=py_same,
                         python_replay_graph_eq_eager=py_graph,
                         mode_python_route_us=t_mode["python"],
                         bitwise_mode_cpp_eq_python=_equal(mode_out["cpp"], mode_out["python"]),
                         mode_graph_eq_eager=mode_graph))
    from redgen.runtime import fast_route

    print(f"the mode's C++ route: {fast_route.status()}")
    print("| call | torch us | imported directly us (C++ replay) | bound by its first call | Python replay us "
          "| general path us | torch op in batch_invariant() us | the same, Python route us | imported directly - "
          "torch | Python replay - torch | mode - torch | replay == general (bits) | CUDA graph == eager (bits) "
          "| Python replay == general, in a CUDA graph too (bits) | mode: C++ == Python route (bits) "
          "| mode: CUDA graph == eager (bits) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['torch_us']:.1f} | {r['redgen_us']:.1f} | {r['bound_by_its_first_call']} | "
              f"{r['python_replay_us']:.1f} | "
              f"{r['general_path_us']:.1f} | {r['mode_us']:.1f} | {r['mode_python_route_us']:.1f} | "
              f"{r['redgen_us'] - r['torch_us']:+.1f} | {r['python_replay_us'] - r['torch_us']:+.1f} | "
              f"{r['mode_us'] - r['torch_us']:+.1f} | {r['bitwise_replay_eq_general']} | "
              f"{r['graph_replay_eq_eager']} | {r['bitwise_python_replay_eq_general'] and r['python_replay_graph_eq_eager']} | "
              f"{r['bitwise_mode_cpp_eq_python']} | {r['mode_graph_eq_eager']} |")
    if only is None or any("attention" in r["case"] for r in rows):
        print(decode_check())
    if opts.json:
        Path(opts.json).write_text(json.dumps(dict(device=torch.cuda.get_device_name(), rows=rows), indent=1))


def _run_args(mod, op, args, kw):
    """The public call's arguments as its `_run` takes them (positional, defaults filled)."""
    import inspect

    bound = inspect.signature(getattr(mod, op)).bind(*args, **kw)
    bound.apply_defaults()
    return tuple(bound.arguments.values())


def _equal(a, b):
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    return all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


def _graph(fn, make, kw):
    """Capture the replayed call in a CUDA graph, replay it on new data: equal to eager."""
    args = make(2)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn(*args, **kw)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = fn(*args, **kw)
    for a, b in zip(args, make(3), strict=True):
        if isinstance(a, torch.Tensor):
            a.copy_(b)
    g.replay()
    torch.cuda.synchronize()
    return _equal(out, fn(*args, **kw))


if __name__ == "__main__":
    main()
