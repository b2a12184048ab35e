"""Compile every kernel of the generated ascend modules with triton-ascend, without an NPU.

Run it with the Python of a venv that has triton-ascend (not upstream triton) and torch:

    .venv-ascend/bin/python scripts/ascend_compile.py generated/ascend

For each module and each kernel (every input dtype; BLOCK = 1 and the module's
BLOCK_ROWS) it calls `triton.compile(ASTSource(...), target=GPUTarget("npu",
"Ascend910B4", 0))`: Triton IR (ttir), then triton-adapter-opt (shipped in the
triton-ascend wheel) down to the Ascend adapter IR (linalg/HIVM, "ttadapter").
The next stage, the NPU binary, needs bishengir-compile from the CANN toolkit,
which a CPU machine does not have: that specific failure, with the ttadapter
file written, counts as success for the kernel. Any earlier failure (a tl.*
construct triton-ascend does not take, a 3-D tile it rejects, ...) fails the
run with the kernel's name and the error. Exit 0 when every kernel got to the
adapter IR (or further, on a machine with CANN), 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import inspect
import io
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path

TARGET_ARCH = "Ascend910B4"
# The binary stage's error when the CANN toolkit is missing: bishengir-compile (or
# the npuc named by TRITON_NPU_COMPILER_PATH) cannot be found or run.
MISSING_CANN = re.compile(
    r"ASCEND_HOME_PATH is not set|Couldn't find executable bishengir-compile|bishengir-compile: (command )?not found")
INT_ARGS = {"M", "N", "K", "R", "CHUNK", "NUM_CHUNKS"}
SIG_DTYPE = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "int32": "i32", "int64": "i64"}


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"_redgen_ascend_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _kernels(mod):
    """The module's launchable kernels: jitted functions that take LANES (not the helpers)."""
    from triton.runtime.jit import JITFunction

    for name, obj in sorted(vars(mod).items()):
        if isinstance(obj, JITFunction) and "LANES" in obj.arg_names and "BLOCK" in obj.arg_names:
            yield name, obj


def _int_inputs(mod) -> set[str]:
    """The module's integer inputs (cross_entropy's targets): their pointers are int64."""
    import torch

    return {name for name, dts in getattr(mod, "_INPUT_DTYPES", {}).items() if all(d == torch.int64 for d in dts)}


def _values(fn, dtype, block, lanes, ints=()):
    """Representative arguments, as the launcher passes them for a contiguous input (an integer
    input's pointer int64, the rest of `dtype`)."""
    import torch

    vals = []
    for p in fn.params:
        n = p.name
        if n == "BLOCK":
            vals.append(block)
        elif n == "LANES":
            vals.append(lanes)
        elif n == "LOG2_LANES":
            vals.append(int(math.log2(lanes)))
        elif n.endswith("_ptr"):
            vals.append(torch.empty(16, dtype=torch.int64 if n[: -len("_ptr")] in ints else dtype))
        elif n.startswith("s_") and n.endswith("_n"):
            vals.append(1)  # reduce axis contiguous: the launcher guarantees it (specialized as 1)
        elif n.startswith("s_") or n in INT_ARGS:
            vals.append(4096 if n != "CHUNK" else 2048)
        else:
            vals.append(1e-6)  # a float parameter of the op (eps, ...)
    return vals


def _contraction_values(mod, fn, dtype):
    """Representative arguments of a contraction kernel (`_contract`, redgen/contraction_emit.py):
    contiguous operands (a's K and b's last dim unit-stride), the module's own tile constants."""
    import torch

    _, block_m, block_n, group_m, _, _ = mod.REGIMES[dtype][-1]
    consts = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": mod.BLOCK_K, "GROUP_M": group_m,
              "SPLIT": mod.SPLIT, "CHUNK": mod.CHUNK, "IEEE": dtype == torch.float32, "EMULATE_BF16": False}
    vals = []
    for p in fn.params:
        n = p.name
        if n in consts:
            vals.append(consts[n])
        elif n.endswith("_ptr"):
            vals.append(torch.empty(16, dtype=dtype))
        elif n in ("s_ak", "s_bn", "s_yn") or (n.startswith("s_e") and n.endswith("_n")):
            vals.append(1)
        elif n.startswith("p") and n[1:].isdigit():
            vals.append(1e-6)
        else:
            vals.append(4096 if n != "NUM_PROGS" else 20)
    return vals


def _source(fn, vals, backend):
    import torch
    from triton.compiler import ASTSource

    attrs = backend.get_attrs_descriptor(fn.params, vals)
    const_nums = attrs.get_constants() if hasattr(attrs, "get_constants") else {}
    signature, constants = {}, {}
    for p, v in zip(fn.params, vals, strict=True):
        if p.is_constexpr or p.num in const_nums:
            constants[p.name] = v
        if p.is_constexpr:
            continue
        if isinstance(v, torch.Tensor):
            signature[p.name] = "*" + SIG_DTYPE[str(v.dtype).split(".")[-1]]
        elif isinstance(v, float):
            signature[p.name] = "fp32"
        else:
            signature[p.name] = "i32"
    return ASTSource(fn, signature, constants, attrs)


# --- attention modules (templates/ascend/attention.py.j2): one persistent kernel, its own arguments ---
def _attention_cases(mod):
    """(label, kernel, values) for each dtype, dense and varlen, GQA 32/8 heads of dim 128."""
    import torch

    fn = mod._attn_persistent
    for dtype in mod._DTYPES:
        for varlen in (False, True):
            consts = {"VARLEN": varlen, "CAUSAL_": mod.CAUSAL, "GROUP": 4, "D": 128, "BLOCK_M_": mod.BLOCK_M,
                      "BLOCK_N_": mod.BLOCK_N, "CHUNK_": mod.CHUNK, "DOT_F32": False}
            vals = []
            for p in fn.params:
                n = p.name
                if n in consts:
                    vals.append(consts[n])
                elif n in ("Q", "K", "V", "OUT"):
                    vals.append(torch.empty(16, dtype=dtype))
                elif n == "LSE":
                    vals.append(torch.empty(16, dtype=torch.float32))
                elif n in ("CU_Q", "CU_K"):
                    vals.append(torch.empty(16, dtype=torch.int32))
                elif n == "scale":
                    vals.append(0.088)
                else:
                    vals.append(4096)  # strides, lengths, head counts, tile and item counts
            label = f"{fn.__name__} [{str(dtype).split('.')[-1]}, {'varlen' if varlen else 'dense'}]"
            yield label, fn, vals


def compile_one(fn, vals) -> tuple[bool, str]:
    """(ok, what happened) for one kernel specialization."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend

    target = GPUTarget("npu", TARGET_ARCH, 0)
    src = _source(fn, vals, make_backend(target))
    noise = io.StringIO()  # triton-ascend prints its bishengir probing to stdout
    try:
        with contextlib.redirect_stdout(noise):
            triton.compile(src, target=target, options={"multibuffer": True})
    except Exception as e:  # noqa: BLE001 - classified below
        text = str(e) + noise.getvalue()
        stage = getattr(e, "stage_name", None)
        cache = re.search(r"compiled kernel cache is in (\S+)", text)
        adapter = cache and list(Path(cache.group(1)).glob("*.ttadapter"))
        if stage == "ConvertLinalgRToBinary" and MISSING_CANN.search(text) and adapter:
            return True, f"adapter IR ok ({adapter[0].stat().st_size} bytes); binary stage needs CANN"
        return False, f"{type(e).__name__} at stage {stage or 'ttir'}: {text.strip()[-2000:]}"
    return True, "compiled to an NPU binary (CANN present)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default="generated/ascend", help="directory of generated ascend modules")
    args = ap.parse_args(argv)
    # A fresh cache: every kernel really goes through the compiler on every run.
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="redgen-ascend-cache-")
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"
    import triton

    if not (Path(inspect.getfile(triton)).parent / "backends" / "ascend").is_dir():
        print(f"error: {triton.__file__} is not triton-ascend (no backends/ascend)", file=sys.stderr)
        return 1
    files = sorted(p for p in Path(args.dir).glob("*.py") if p.name != "__init__.py")
    if not files:
        print(f"error: no generated modules in {args.dir}", file=sys.stderr)
        return 1
    failed = 0
    total = 0
    t0 = time.time()
    for path in files:
        mod = _load(path)
        if hasattr(mod, "_attn_persistent"):  # --- attention (see _attention_cases) ---
            for label, fn, vals in _attention_cases(mod):
                total += 1
                t = time.time()
                ok, what = compile_one(fn, vals)
                print(f"{'ok  ' if ok else 'FAIL'} {path.name}:{label}: {what} ({time.time() - t:.1f}s)", flush=True)
                failed += not ok
            continue
        if hasattr(mod, "REGIMES"):  # a contraction: one kernel, each dtype
            for dtype in mod._DTYPES:
                total += 1
                label = f"{path.name}:_contract [{str(dtype).split('.')[-1]}, BLOCK_K={mod.BLOCK_K}]"
                t = time.time()
                ok, what = compile_one(mod._contract, _contraction_values(mod, mod._contract, dtype))
                print(f"{'ok  ' if ok else 'FAIL'} {label}: {what} ({time.time() - t:.1f}s)", flush=True)
                failed += not ok
            continue
        dtypes = next(iter(mod._INPUT_DTYPES.values()))
        for name, fn in _kernels(mod):
            for dtype in dtypes:
                for block in sorted({1, mod.BLOCK_ROWS}):
                    total += 1
                    label = f"{path.name}:{name} [{str(dtype).split('.')[-1]}, BLOCK={block}, LANES={mod.LANES}]"
                    t = time.time()
                    ok, what = compile_one(fn, _values(fn, dtype, block, mod.LANES, _int_inputs(mod)))
                    print(f"{'ok  ' if ok else 'FAIL'} {label}: {what} ({time.time() - t:.1f}s)", flush=True)
                    failed += not ok
    print(f"{total - failed} passed, {failed} failed ({time.time() - t0:.0f}s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
