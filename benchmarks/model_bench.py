"""A small Hugging Face Llama's generate time with and without redgen.batch_invariant().

    python benchmarks/model_bench.py            # GPU: 4 layers, hidden 2048, bf16, batch 8, 512-token prompts
    python benchmarks/model_bench.py --profile  # and where the GPU time of one generate goes, both ways
    python benchmarks/model_bench.py --split    # and the mode with one family of routes at a time
    python benchmarks/model_bench.py --reps 9   # rounds of the interleaved comparison (default 5)
    python benchmarks/model_bench.py --python-route  # and the mode with its routes in Python only

The model is built from a config (random weights, nothing downloaded; examples/
llama_invariance.py builds it). Greedy decoding of NEW tokens with a KV cache, timed after
a warm-up, plain torch and inside the mode in alternation (best of REPS rounds each); prints
both times, their ratio (issue 12's goal: at most 1.1x), what the mode routed and whether the
tokens agree.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples"))

from llama_invariance import Setup, build, generate  # noqa: E402

SETUP = Setup(hidden=2048, layers=4, heads=16, kv_heads=4, intermediate=5632, vocab=32000, prompt=512, new=64,
              batches=(8,), dtype="bfloat16", device="cuda")




def _reps() -> int:
    """Rounds of the interleaved comparison: --reps N (default 5)."""
    if "--reps" not in sys.argv:
        return 5
    i = sys.argv.index("--reps") + 1
    if i >= len(sys.argv) or not sys.argv[i].isdigit() or int(sys.argv[i]) < 1:
        sys.exit(f"model_bench.py: --reps takes a positive number of rounds, got {sys.argv[i:i + 1] or 'nothing'}")
    return int(sys.argv[i])


REPS = _reps()


def _once(model, ids, new: int) -> tuple[float, object]:
    import torch

    torch.cuda.synchronize()
    t = time.perf_counter()
    toks, _ = generate(model, ids, new)
    torch.cuda.synchronize()
    return time.perf_counter() - t, toks


def interleaved(model, ids, new: int, routes=None, python_route: bool = False) -> tuple:
    """Best plain and best mode time over REPS rounds of one plain generate then one in the mode
    (`routes`: the route table the mode installs; None: all of it). A shared host's speed drifts
    by more than the mode's cost between runs minutes apart: side by side, both see the same drift.
    With `python_route`, a third generate a round runs the mode with REDGEN_FAST_ROUTE=0 (its
    replayable routes in Python, not C++): (plain, mode, plain tokens, mode tokens, python-route
    mode, its tokens); otherwise the last two are None."""
    import redgen
    from redgen.runtime import mode

    every = mode.ROUTES
    if routes is not None:
        mode.ROUTES = routes
    try:
        generate(model, ids, 4)  # warm-up: compiles every kernel of prefill and decode, both ways
        with redgen.batch_invariant():
            generate(model, ids, 4)
        plain = routed = slow = float("inf")
        toks_plain = toks_routed = toks_slow = None
        for _ in range(REPS):
            t, toks_plain = _once(model, ids, new)
            plain = min(plain, t)
            with redgen.batch_invariant():
                t, toks_routed = _once(model, ids, new)
            routed = min(routed, t)
            if python_route:
                os.environ["REDGEN_FAST_ROUTE"] = "0"
                try:
                    with redgen.batch_invariant():
                        t, toks_slow = _once(model, ids, new)
                finally:
                    del os.environ["REDGEN_FAST_ROUTE"]
                slow = min(slow, t)
    finally:
        mode.ROUTES = every
    return plain, routed, toks_plain, toks_routed, (slow if python_route else None), toks_slow


def main() -> int:
    import torch

    import redgen

    s = SETUP
    model = build(s)
    g = torch.Generator(device="cuda").manual_seed(1)
    ids = torch.randint(0, s.vocab, (s.batches[0], s.prompt), device="cuda", generator=g)
    from redgen.runtime import mode

    before = mode.call_counts()
    python_route = "--python-route" in sys.argv
    plain, routed, toks_plain, toks_routed, slow, toks_slow = interleaved(model, ids, s.new, python_route=python_route)
    calls = dict(mode.call_counts() - before)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"Llama {s.layers} layers, hidden {s.hidden}, {s.dtype}, batch {s.batches[0]}, prompt {s.prompt}, "
          f"{s.new} new tokens (best of {REPS}, plain and mode interleaved)")
    print("| run | generate s | tokens/s |\n| --- | --- | --- |")
    n = s.batches[0] * s.new
    print(f"| plain torch | {plain:.3f} | {n / plain:.0f} |")
    print(f"| redgen.batch_invariant() | {routed:.3f} | {n / routed:.0f} |")
    if python_route:
        print(f"| batch_invariant(), routes in Python (REDGEN_FAST_ROUTE=0) | {slow:.3f} | {n / slow:.0f} |")
    # Plain torch and the mode round differently (cuBLAS against redgen's fixed orders), so their
    # greedy tokens may part after a near tie: this says whether they did, not whether either is
    # invariant (examples/llama_invariance.py checks that, bit for bit).
    print(f"ratio (mode / plain): {routed / plain:.2f}x; the mode's tokens equal plain torch's: "
          f"{torch.equal(toks_plain, toks_routed)} (they may differ: other rounding, not a failure)")
    if python_route:
        print(f"ratio, routes in Python: {slow / plain:.2f}x; its tokens equal the C++ route's: "
              f"{torch.equal(toks_slow, toks_routed)}")
    from redgen.runtime import fast_route

    with redgen.batch_invariant():  # the plans a generate leaves (the last disable drops them)
        generate(model, ids, 4)
        plans = fast_route.plans()
    print(f"the mode's C++ route: {fast_route.status()}; plans (C++ launches, Python replays): {plans}")
    print(f"routed calls (warm-ups and {REPS} timed runs): {calls}")
    if "--split" in sys.argv:
        _split(model, ids, s.new)
    if "--profile" in sys.argv:
        _profile(model, ids, s.new)
    return 0


# The route families of the mode, by aten overload name (runtime/aten.py, matmul_routes.py,
# attention_routes.py): what each one alone adds to the plain time.
FAMILIES = {
    "matmul (mm, addmm, bmm)": ("mm.", "addmm.", "bmm."),
    "attention (sdpa)": ("_scaled_dot_product",),
    "mean": ("mean.",),
    "argmax": ("argmax.",),
}


def _split(model, ids, new: int) -> None:
    """The mode with one family of routes at a time (each against its own interleaved plain
    runs): where its extra time comes from."""
    from redgen.runtime import mode

    print("| routed | plain s | mode s | mode / plain |\n| --- | --- | --- | --- |")
    for label, prefixes in FAMILIES.items():
        routes = tuple(r for r in mode.ROUTES if r.aten.startswith(prefixes))
        plain, routed, *_ = interleaved(model, ids, new, routes)
        print(f"| {label} alone | {plain:.3f} | {routed:.3f} | {routed / plain:.2f}x |")


def _profile(model, ids, new: int) -> None:
    """One generate under torch.profiler, plain and in the mode: the kernels by GPU time."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    import redgen

    for label, ctx in (("plain torch", None), ("redgen.batch_invariant()", redgen.batch_invariant)):
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            if ctx is None:
                generate(model, ids, new)
            else:
                with ctx():
                    generate(model, ids, new)
            torch.cuda.synchronize()
        if ctx is not None:  # where the mode's host time goes: the CPU ops, then its Python
            cpu = sorted(prof.key_averages(), key=lambda e: -e.self_cpu_time_total)[:12]
            print(f"--- {label}: host (CPU) time by op, top 12")
            print("| op | calls | self CPU ms |\n| --- | --- | --- |")
            for e in cpu:
                print(f"| {e.key[:70]} | {e.count} | {e.self_cpu_time_total / 1e3:.2f} |")
            import cProfile
            import pstats

            cp = cProfile.Profile()
            with ctx():
                cp.enable()
                generate(model, ids, new)
                cp.disable()
            torch.cuda.synchronize()
            pstats.Stats(cp).sort_stats("tottime").print_stats(16)
            pstats.Stats(cp).sort_stats("cumulative").print_stats("redgen|generated", 30)
        events = [e for e in prof.key_averages() if e.device_time_total > 0]
        total = sum(e.self_device_time_total for e in events)
        print(f"--- {label}: GPU time of one generate {total / 1e3:.1f} ms, top kernels")
        print("| kernel | calls | GPU ms | share |\n| --- | --- | --- | --- |")
        for e in sorted(events, key=lambda e: -e.self_device_time_total)[:10]:
            print(f"| {e.key[:70]} | {e.count} | {e.self_device_time_total / 1e3:.2f} | "
                  f"{e.self_device_time_total / total:.0%} |")


if __name__ == "__main__":
    sys.exit(main())
