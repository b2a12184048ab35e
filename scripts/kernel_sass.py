"""What a call of a generated cuda module compiles to on an NVIDIA GPU, on a machine without one.

    python scripts/kernel_sass.py generated/cuda/nansum.py --shape 64,128,1024 --dim 1 --dtype bf16
    python scripts/kernel_sass.py generated/cuda/vector_norm.py --shape 64,128,1024 --dim 1 --kwarg ord=3
    python scripts/kernel_sass.py generated/cuda/softmax_held.py --shape 4096,32000 --knob ROW_ACROSS_LANES=2

The module's launcher runs on CPU tensors of those shapes (one --shape an input) with its launches
recorded and not run (every Triton launch of the process, so a call handed to another generated module,
softmax's to softmax_held's, is seen too): its own schedule picks the kernels, grids and constexprs, as
it would on the GPU. Each launch's kernel is then compiled for the architecture (--arch, default 90: H100 and H200)
the way Triton's JIT compiles it there: its specialization of every argument (a pointer's and an
integer's divisibility by 16, an integer 1), the launch's options (num_warps, enable_fp_fusion=False),
and the installed Triton's own ptxas. For each launch it prints the kernel, grid and constexprs, the
registers a thread, the local (spilled) bytes, the SASS instructions, the global loads, and how many
instructions work on packed 16-bit pairs (BF16_V2 / F16_V2 / H*2: the compiler running an element's
code on two loads at once, which cost the stack walk half its speed in runs 107 and 109 of
docs/gpu_2026_11_28/README.md). --sass DIR writes each kernel's SASS and PTX. It compiles; it times
nothing.
The grid shown is the launcher's for CPU tensors: a persistent kernel's (a contraction's) counts the
interpreter's programs, not the GPU's multiprocessors; the code compiled is the GPU's (its exp, no bf16
emulation).
Registers and spills follow the Triton release and its ptxas, so compile with the release the GPU runs
(it prints both first): the GPU runs of docs/gpu_2026_11_28-29 ran triton 3.6.0, and there var's cols
partial kernel takes 255 registers and no stack, where triton 3.9.0's ptxas 13.4 gives it 32 registers
and a 23.5 KB stack (`pip install triton==3.6.0` in a venv of its own for the GPU's view; stop 53).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

DTYPES = {"f32": "float32", "bf16": "bfloat16", "f16": "float16", "i64": "int64", "i32": "int32"}
# What a launcher chooses for the interpreter alone, undone for the GPU's compile: a contraction's bf16
# emulation (numpy has no bf16 dot).
GPU_CONSTS = {"EMULATE_BF16": False}
GPU_SMS = 132  # an H100's and an H200's multiprocessors, for a launcher that sizes a grid or a prefetch by them
# An SASS instruction line of cuobjdump: /*0a40*/  [@P0] OPCODE.MODIFIERS operands ;
_INSTR = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
# Packed 16-bit arithmetic (HFMA2.MMA is the compiler's idiom for a register move, not arithmetic).
_PACKED = re.compile(r"^H(ADD|MUL|FMA|SETP|MNMX)2(?!\.MMA)")


class Refused(Exception):
    """A bad argument, named: the script prints it and exits 2."""


def _parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("module", type=Path, help="a generated cuda module, e.g. generated/cuda/sum.py")
    p.add_argument("--shape", action="append", required=True, help="an input's shape, e.g. 64,128,1024")
    p.add_argument("--dim", help="the reduced dim(s), e.g. 1 or 1,2")
    p.add_argument("--dtype", default="bf16", help=f"the inputs' dtype: {', '.join(DTYPES)} (default bf16)")
    p.add_argument("--kwarg", action="append", default=[], help="a keyword of the call, e.g. ord=3")
    p.add_argument("--knob", action="append", default=[],
                   help="a module knob set before the call, e.g. ROW_ACROSS_LANES=2 (an integer; set on the module "
                        "short rows are handed to too, where it has the knob)")
    p.add_argument("--arch", type=int, default=90, help="the compute capability, 90 for sm_90 (default)")
    p.add_argument("--sass", type=Path, help="a directory to write each kernel's SASS into")
    return p.parse_args(argv)


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(v) for v in text.split(",")]
    except ValueError:
        raise Refused(f"{what} must be integers separated by commas, got {text!r}") from None


def _load(path: Path):
    """The module at `path` (its kernels compiled ones: see main)."""
    if not path.is_file():
        raise Refused(f"no such module: {path}")
    spec = importlib.util.spec_from_file_location(f"_sass_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # Triton reads a kernel's source through its module
    spec.loader.exec_module(mod)
    if not hasattr(mod, "_go"):
        raise Refused(f"{path} is not a generated cuda module (its launches do not pass through _go)")
    if not hasattr(mod, path.stem):
        raise Refused(f"{path} has no function {path.stem!r}")
    return mod


def set_knobs(mod, knobs: list[str]) -> None:
    """Each NAME=VALUE of --knob set on `mod` and on the module it hands short rows to, where that has it:
    the launcher's schedule then reads it as it would on the GPU (a knob a sweep varies)."""
    mods = (mod, *((mod._short_module(),) if hasattr(mod, "_short_module") else ()))
    for text in knobs:
        name, sep, value = text.partition("=")
        if not sep:
            raise Refused(f"--knob must be NAME=VALUE, got {text!r}")
        try:
            number = int(value, 0)
        except ValueError:
            raise Refused(f"--knob {name}: an integer, got {value!r}") from None
        owners = [m for m in mods if isinstance(getattr(m, name, None), int) and name.isupper()]
        if not owners:
            raise Refused(f"--knob {name}: not a knob of {mod.__name__.removeprefix('_sass_')}")
        for m in owners:
            setattr(m, name, number)


def record(mod, op: str, tensors, dim, kwargs) -> list:
    """The launches (kernel, grid, args, keywords) of `op(*tensors, dim, **kwargs)`, none run: every
    compiled kernel's launch in the process is recorded instead (JITFunction.run)."""
    from triton.runtime.jit import JITFunction

    launches = []

    def run(self, *args, grid, warmup, **kw):
        launches.append((self, grid, args, kw))

    own, JITFunction.run = JITFunction.run, run
    # The GPU's SMs where a launcher asks for them (_CPU_SMS: the row kernels' L2 prefetch, which a CPU
    # tensor would leave out), this module's and the one it hands short rows to.
    for m in (mod, *((mod._short_module(),) if hasattr(mod, "_short_module") else ())):
        if hasattr(m, "_CPU_SMS"):
            m._CPU_SMS = GPU_SMS
    try:
        getattr(mod, op)(*tensors, *(() if dim is None else (dim,)), **kwargs)
    except (TypeError, ValueError, RuntimeError) as e:
        raise Refused(f"{op}{tuple(t.shape for t in tensors)}: {e}") from None
    finally:
        JITFunction.run = own
    return launches


def gpu_forms() -> None:
    """Every loaded generated module's exp as on the GPU (_GPU_EXP: ex2.approx.ftz, not tl.exp):
    the modules were imported taking CPU tensors, which also picks the interpreter's exp."""
    import triton.language as tl

    for mod in list(sys.modules.values()):
        if getattr(mod, "_GPU_EXP", None) is not None:
            mod._GPU_EXP = tl.constexpr(True)


def compile_launch(kernel, args, consts, arch: int):
    """`kernel` compiled for sm_<arch> as Triton's JIT would for this launch."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend
    from triton.runtime import jit

    target = GPUTarget("cuda", arch, 32)
    backend = make_backend(target)
    binder = jit.create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*args, **consts)
    options, signature, constexprs, attrs = kernel._pack_args(backend, consts, bound, specialization, options)
    return triton.compile(ASTSource(kernel, signature, constexprs, attrs), target=target, options=options.__dict__)


def _tool(name: str) -> str:
    import triton

    return str(Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / name)


def inspect_cubin(cubin: bytes) -> tuple[dict[str, int], str]:
    """cuobjdump's resource usage (REG, STACK, SHARED, LOCAL) and SASS of a cubin."""
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "k.cubin"
        f.write_bytes(cubin)
        res = subprocess.run([_tool("cuobjdump"), "-res-usage", str(f)], capture_output=True, text=True, check=True)
        sass = subprocess.run([_tool("cuobjdump"), "-sass", str(f)], capture_output=True, text=True, check=True)
    usage = {k: int(v) for k, v in re.findall(r"\b(REG|STACK|SHARED|LOCAL):(\d+)", res.stdout)}
    return usage, sass.stdout


def summary(sass: str) -> dict[str, int]:
    """Counts of a kernel's SASS: instructions, global loads, packed 16-bit ones."""
    ops = [m.group(1) for m in map(_INSTR.match, sass.splitlines()) if m]
    return {"instructions": len(ops), "global loads": sum(o.startswith("LDG") for o in ops),
            "packed 16-bit": sum(bool(_PACKED.search(o)) for o in ops)}


def main(argv=None) -> int:
    a = _parse(argv)
    # Compiled kernels, not the interpreter's: Triton decides when it decorates a kernel, and its own
    # library when it is imported (a process of its own, then). The generated modules read
    # TRITON_INTERPRET to take CPU tensors: set for them, with Triton's own switch kept off.
    if "triton" in sys.modules and os.environ.get("TRITON_INTERPRET", "0") not in ("", "0"):
        print("kernel_sass: run it in a process of its own, without TRITON_INTERPRET", file=sys.stderr)
        return 2
    os.environ.pop("TRITON_INTERPRET", None)
    from triton import knobs

    knobs.runtime.interpret = False
    os.environ["TRITON_INTERPRET"] = "1"
    try:
        import torch

        if a.dtype not in DTYPES:
            raise Refused(f"--dtype must be one of {', '.join(DTYPES)}, got {a.dtype!r}")
        kwargs = {}
        for kw in a.kwarg:
            key, sep, value = kw.partition("=")
            if not sep:
                raise Refused(f"--kwarg must be name=value, got {kw!r}")
            try:
                kwargs[key] = float(value)
            except ValueError:
                raise Refused(f"--kwarg {key}: a number, got {value!r}") from None
        shapes = [_ints(s, "--shape") for s in a.shape]
        dim = None if a.dim is None else (lambda d: d[0] if len(d) == 1 else tuple(d))(_ints(a.dim, "--dim"))
        dtype = getattr(torch, DTYPES[a.dtype])
        gen = torch.Generator().manual_seed(0)
        tensors = [torch.randn(s, generator=gen).to(dtype) for s in shapes]
        mod = _load(a.module)
        set_knobs(mod, a.knob)
        launches = record(mod, a.module.stem, tensors, dim, kwargs)
    except Refused as e:
        print(f"kernel_sass: {e}", file=sys.stderr)
        return 2
    gpu_forms()
    import triton
    from triton.backends.nvidia.compiler import get_ptxas

    ptxas = get_ptxas(a.arch)  # the ptxas Triton's compile runs for this architecture
    print(f"triton {triton.__version__}, ptxas {ptxas.version} ({Path(ptxas.path).name})")
    if a.sass:
        a.sass.mkdir(parents=True, exist_ok=True)
    for i, (kernel, grid, args, consts) in enumerate(launches):
        name = kernel.fn.__name__
        consts = {k: GPU_CONSTS.get(k, v) for k, v in consts.items()}
        compiled = compile_launch(kernel, args, consts, a.arch)
        usage, sass = inspect_cubin(compiled.asm["cubin"])
        counts = summary(sass)
        shown = {k: v for k, v in consts.items() if k != "enable_fp_fusion"}
        print(f"{name} grid {grid} {shown}")
        # spilled registers live in the stack frame (STACK, and LDL/STL below); LOCAL counts local arrays
        print(f"  sm_{a.arch}: {usage.get('REG', 0)} registers a thread, {usage.get('STACK', 0)} stack bytes, "
              f"{usage.get('LOCAL', 0)} local bytes, " + ", ".join(f"{v} {k}" for k, v in counts.items()))
        top = collections.Counter(m.group(1).split(".")[0] for m in map(_INSTR.match, sass.splitlines()) if m)
        print("  most frequent: " + ", ".join(f"{op} {n}" for op, n in top.most_common(8)))
        if a.sass:
            out = a.sass / f"{i}_{name}.sass"
            out.write_text(sass)
            out.with_suffix(".ptx").write_text(compiled.asm["ptx"])
            print(f"  SASS: {out} (PTX beside it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
