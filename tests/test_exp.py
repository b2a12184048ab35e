"""exp in the generated kernels: one `_rg_exp` per module (templates/<target>/exp.py.j2).

On cuda it is ex2.approx.ftz.f32 of x * log2(e) on the GPU and tl.exp under the
interpreter; the certificate's trusted list says so. Checked here:
- the GPU branch is what a GPU compiles: the real softmax kernel, compiled on this CPU
  to sm_90 PTX, has only the ftz instruction, one per exp the kernel computes;
- the interpreter branch is tl.exp: special values give numpy's exp, bit for bit;
- every exp of the emitted kernels goes through `_rg_exp`, on both targets.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy
import pytest
import torch
import triton
import triton.language as tl

from redgen.verify.proof import exp_trust

ROOT = Path(__file__).resolve().parent.parent

# Compiles the fused rows kernel of generated/cuda/softmax.py for an H100 (no GPU needed:
# Triton lowers to PTX with its own LLVM) and counts the ex2 instructions by form.
_PTX = """
import importlib.util, json, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
spec = importlib.util.spec_from_file_location("m", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
k = m._k_rows_fused
consts = dict(WIDE=False, BLOCK=1, LANES=256, LOG2_LANES=8, PAIRS=False, UNROLL=2)
if "STAGES" in k.arg_names:
    consts["STAGES"] = 3  # the output sweep's staged loop (16-bit rows of several chunks)
sig = {}
for p in k.params:
    n = p.name
    sig[n] = "constexpr" if n in consts else "*bf16" if n.endswith("_ptr") else "i32"
src = ASTSource(fn=k, signature=sig, constexprs={(k.arg_names.index(n),): v for n, v in consts.items()})
c = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=dict(num_warps=4, enable_fp_fusion=False))
ptx = c.asm["ptx"]
print(json.dumps({"ftz": ptx.count("ex2.approx.ftz.f32"), "plain": ptx.count("ex2.approx.f32")}))
"""


def test_gpu_branch_compiles_to_the_ftz_instruction():
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}  # triton.jit, not the interpreter
    out = subprocess.run(
        [sys.executable, "-c", _PTX, str(ROOT / "generated" / "cuda" / "softmax.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    # The walk's two exps per combine, UNROLL = 2 tiles in a group and one in the tail, the
    # lane tree's and the chunk combine's, the output sweep's: all ftz, none of tl.exp's.
    assert counts["plain"] == 0, counts
    assert counts["ftz"] >= 6, counts


@triton.jit
def _exp_kernel(x_ptr, y_ptr, fn: tl.constexpr, n: tl.constexpr):
    i = tl.arange(0, n)
    tl.store(y_ptr + i, fn(tl.load(x_ptr + i)))


def test_interpreter_branch_is_tl_exp():
    from generated.cuda import softmax

    x = torch.tensor(
        [
            float("-inf"),
            -104.0,
            -88.0,
            -87.0,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            1.0,
            88.7,
            89.0,
            float("inf"),
            float("nan"),
            -3.25,
            0.5,
            20.0,
        ],
        dtype=torch.float32,
    )
    y = torch.empty_like(x)
    with numpy.errstate(over="ignore"):  # exp(89) overflows to inf, as it should
        _exp_kernel[(1,)](x, y, softmax._rg_exp, x.numel())
        want = torch.from_numpy(numpy.exp(x.numpy()))  # numpy's float32 exp: tl.exp under the interpreter
    assert torch.equal(y.view(torch.int32)[~x.isnan()], want.view(torch.int32)[~x.isnan()])
    assert y[x.isnan()].isnan().all()


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_every_exp_goes_through_the_helper(target):
    files = sorted((ROOT / "generated" / target).glob("*.py"))
    users = 0
    for f in files:
        text = f.read_text()
        body = text.split("def _rg_exp(", 1)
        # tl.exp only inside the helper itself: the rest of the module calls _rg_exp.
        rest = body[0] + (body[1].split("\n\n\n", 1)[1] if len(body) > 1 else "")
        assert "tl.exp(" not in rest, f"{f.name}: an exp outside _rg_exp"
        if "_rg_exp(" in rest:
            assert len(body) > 1, f"{f.name} calls _rg_exp without defining it"
            users += 1
    assert users >= 5  # softmax, log_softmax, logsumexp, cross_entropy, attention


def test_certificates_state_it():
    from generated.ascend import softmax as ascend_softmax
    from generated.cuda import attention, softmax

    assert exp_trust("cuda") in softmax.CERTIFICATE["trusted"]
    assert exp_trust("cuda") in attention.CERTIFICATE["trusted"]
    assert exp_trust("ascend") in ascend_softmax.CERTIFICATE["trusted"]
    assert "ftz" in exp_trust("cuda") and "ftz" not in exp_trust("ascend")
