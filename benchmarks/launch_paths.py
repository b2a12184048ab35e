"""Host time per call of each way to launch a generated kernel, on a GPU.

    PYTHONPATH=. python benchmarks/launch_paths.py

Where a generated launcher's host time goes (issue 12, "cheap to call"): torch's op, the
full launcher, the launcher with its kernel launch stubbed out (our Python alone), the raw
`kernel[grid](...)` call (Triton's JIT dispatch), the compiled kernel's own `run` with the
arguments bound once (what a per-shape cache of the binding could reach), and the same op
through `redgen.batch_invariant()`. Prints one table per op and a cProfile of the launcher.
A candidate build of mean and rms_norm placed in _scratch/ (git-ignored) is compared with
generated/: bitwise equality, CUDA-graph replay, host time.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_run import ROOT, cpu_us, load  # noqa: E402


def _compiled_run(kernel, grid, args, consts):
    """The compiled kernel's launch with everything but the stream bound once."""
    from triton import knobs

    ck = kernel[grid](*args, **consts)  # the normal path once: compiles and returns the CompiledKernel
    it = iter(args)
    values = [consts[p.name] if p.is_constexpr else next(it) for p in kernel.params]
    g = tuple(grid) + (1,) * (3 - len(grid))
    fn, meta, run = ck.function, ck.packed_metadata, ck.run

    def call():
        stream = torch.cuda.current_stream().cuda_stream
        run(g[0], g[1], g[2], stream, fn, meta, None, knobs.runtime.launch_enter_hook,
            knobs.runtime.launch_exit_hook, *values)

    return call


def main() -> None:
    import redgen

    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {__import__('triton').__version__}")
    mean = load(ROOT / "generated" / "cuda" / "mean.py")
    rms = load(ROOT / "generated" / "cuda" / "rms_norm.py")
    x = torch.randn(64, 4096, device="cuda")
    w = torch.randn(4096, device="cuda")
    rows = []

    def row(name, fn):
        fn()
        # the best of 5: the host is shared, its noise only ever adds time
        rows.append((name, min(cpu_us(fn, 2000) for _ in range(5))))

    row("torch.mean(x, -1)", lambda: torch.mean(x, -1))
    row("redgen mean(x, -1)", lambda: mean.mean(x, -1))
    real = mean._launch
    mean._launch = lambda *a: None
    row("  mean launcher, launch stubbed", lambda: mean.mean(x, -1))
    mean._launch = real
    y = torch.empty(64, 1, device="cuda")
    chunk = int(mean.CERTIFICATE["order"]["chunk"]) if str(mean.CERTIFICATE["order"]["chunk"]).isdigit() else 4096
    # ..., CHUNK, NUM_CHUNKS, PID0 (the first program of the grid); WIDE=False: int32 indices
    args = (x, x.stride(0), x.stride(1), 0, y, y.stride(0), y.stride(1), 64, 4096, 1, 64, chunk, -(-4096 // chunk), 0)
    consts = dict(WIDE=False, BLOCK=1, LANES=mean.LANES, LOG2_LANES=mean.LANES.bit_length() - 1, num_warps=4,
                  enable_fp_fusion=False)
    k = mean._k_rows_fused
    row("  raw kernel[grid](...)", lambda: k[(64,)](*args, **consts))
    row("  CompiledKernel.run, args bound once", _compiled_run(k, (64,), args, consts))
    row("  torch.empty(64, 1) (an output allocation)", lambda: torch.empty(64, 1, device="cuda"))
    row("  torch.cuda.current_stream().cuda_stream", lambda: torch.cuda.current_stream().cuda_stream)
    with redgen.batch_invariant():
        row("torch.mean(x, -1) in batch_invariant()", lambda: torch.mean(x, -1))
    row("torch rms_norm(x, [4096], w)", lambda: torch.nn.functional.rms_norm(x, [4096], w, 1e-6))
    row("redgen rms_norm(x, w, -1)", lambda: rms.rms_norm(x, w, -1, eps=1e-6))
    with redgen.batch_invariant():
        row("rms_norm in batch_invariant()", lambda: torch.nn.functional.rms_norm(x, [4096], w, 1e-6))
    scratch = ROOT / "_scratch"
    if (scratch / "mean.py").exists():  # a candidate build of the same specs, compared with generated/
        new_mean, new_rms = load(scratch / "mean.py"), load(scratch / "rms_norm.py")
        row("candidate mean(x, -1)", lambda: new_mean.mean(x, -1))
        row("candidate rms_norm(x, w, -1)", lambda: new_rms.rms_norm(x, w, -1, eps=1e-6))
        xs = torch.randn(3, 5000, 7, device="cuda")
        cases = [(f"mean dim {d} {tuple(t.shape)}", lambda t=t, d=d: mean.mean(t, d), lambda t=t, d=d: new_mean.mean(t, d))
                 for t in (x, xs, x[:1], xs[:1]) for d in (1, -1)]
        cases += [(f"rms_norm {tuple(t.shape)}", lambda t=t: rms.rms_norm(t, w, -1), lambda t=t: new_rms.rms_norm(t, w, -1))
                  for t in (x, x[:1], torch.randn(2, 3, 4096, device="cuda"))]
        for name, f_old, f_new in cases:
            same = all(torch.equal(f_old(), f_new()) for _ in range(3))
            print(f"candidate bitwise equal to generated/ ({name}): {same}")
        import triton

        row("  torch.cuda.current_device()", torch.cuda.current_device)
        print("launch hooks:", triton.knobs.runtime.launch_enter_hook, triton.knobs.runtime.launch_exit_hook)
        row("  triton.knobs.runtime.launch_enter_hook", lambda: triton.knobs.runtime.launch_enter_hook)
        row("  x.data_ptr() % 16", lambda: x.data_ptr() % 16)
        row("  torch._C._cuda_getCurrentRawStream(0)", lambda: torch._C._cuda_getCurrentRawStream(0))
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(500):
            new_mean.mean(x, -1)
        prof.disable()
        torch.cuda.synchronize()
        pstats.Stats(prof).sort_stats("tottime").print_stats(14)
        print("bound signatures in the candidate mean:", len(getattr(new_mean, "_BOUND", {})), "(0: a module without bound launches)")
        g = torch.cuda.CUDAGraph()
        out = None
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            new_mean.mean(x, -1)
        torch.cuda.current_stream().wait_stream(s)
        with torch.cuda.graph(g):
            out = new_mean.mean(x, -1)
        x.copy_(torch.randn_like(x))
        g.replay()
        torch.cuda.synchronize()
        print("candidate in a CUDA graph, replayed on new data, equals eager:", torch.equal(out, mean.mean(x, -1)))
    print("| call | host us per call |\n| --- | --- |")
    for name, us in rows:
        print(f"| {name} | {us:.2f} |")
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(500):
        mean.mean(x, -1)
    prof.disable()
    torch.cuda.synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    with redgen.batch_invariant():
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(500):
            torch.mean(x, -1)
        prof.disable()
    torch.cuda.synchronize()
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
