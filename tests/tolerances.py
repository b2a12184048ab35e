"""The per-dtype tolerances live in the package (redgen/tolerances.py), where the
empirical check uses them too; the tests import them from here as before."""

from __future__ import annotations

import torch

from redgen.tolerances import EXACT, TOLERANCE, assert_accurate, tolerance

__all__ = ["EXACT", "TOLERANCE", "assert_accurate", "assert_attention_accurate", "tolerance"]


def assert_attention_accurate(out: torch.Tensor, ref: torch.Tensor, in_dtype: torch.dtype,
                              v_absmax: float) -> None:
    """Attention's output against its float64 reference.

    As every flash-style kernel (and torch's flash SDPA), the attention kernel rounds the
    softmax weights p to the input dtype before the p @ v tensor-core product: for f16/bf16
    inputs each weight carries up to half an ulp of relative error, so the output
    sum_j p_j v_j may be off by eps(dtype)/2 * sum_j p_j |v_j| <= eps(dtype)/2 * max|v| on top of
    the per-dtype tolerance (f32 inputs are not rounded: the tolerance alone).
    """
    if in_dtype in (torch.float16, torch.bfloat16):
        extra = torch.finfo(in_dtype).eps / 2 * v_absmax
        tol = tolerance(in_dtype)
        expect = ref.to(out.dtype).double() if out.dtype in (torch.float16, torch.bfloat16) else ref
        rtol = tol + (torch.finfo(out.dtype).eps if out.dtype != torch.float32 else 0.0)
        torch.testing.assert_close(out.double(), expect, rtol=rtol, atol=tol + extra, equal_nan=True)
        return
    assert_accurate(out, ref, in_dtype)
