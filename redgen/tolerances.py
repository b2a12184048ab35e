"""Per-dtype accuracy tolerances, in one place (DESIGN.md, "Accuracy").

Used by the tests (tests/tolerances.py re-exports this module) and by the empirical
check, which compares every output of the emitted kernels with redgen.reference.

Results are compared with a float64 torch reference computed from the same
(exactly representable) input values. The tolerance is chosen by the dtype
the kernel *reads*:

    f16 1e-3, bf16 1e-3 (compared in f32), f32 1e-4, integers and bools exact.

How a comparison is made (`assert_accurate`):
- the kernel output is widened to float64 and checked with
  `torch.testing.assert_close(rtol=tol, atol=tol)`: |out - ref| <= tol + tol * |ref|,
  relative for large values, absolute near zero (sums of random signs);
- "bf16 compared in f32": the kernels accumulate in f32 whatever they read,
  so the accuracy of a bf16 (or f16) kernel is judged on an f32 result at 1e-3;
  when the output itself is f16/bf16, the reference is first rounded to the
  output dtype (no kernel can beat that rounding) and one unit in the last
  place of the output dtype is allowed on top (an f32 accumulator and the
  f64 reference may sit on either side of a rounding boundary);
- NaN matches NaN (mean over an empty axis), infinities must match exactly.

Batch-invariance checks never use these: they are bitwise (`torch.equal`).
"""

from __future__ import annotations

import torch

TOLERANCE: dict[torch.dtype, float] = {
    torch.float16: 1e-3,
    torch.bfloat16: 1e-3,
    torch.float32: 1e-4,
}
EXACT = 0.0  # integers and bools


def tolerance(dtype: torch.dtype) -> float:
    """The tolerance for a kernel reading `dtype` (0 for integer and bool dtypes)."""
    if not dtype.is_floating_point:
        return EXACT
    return TOLERANCE[dtype]


def assert_accurate(out: torch.Tensor, ref: torch.Tensor, in_dtype: torch.dtype) -> None:
    """`out` (the kernel result) matches the float64 reference `ref` for an input of `in_dtype`."""
    assert ref.dtype == torch.float64, "the reference must be computed in float64"
    assert out.shape == ref.shape, f"shape {tuple(out.shape)} != reference {tuple(ref.shape)}"
    tol = tolerance(in_dtype)
    rtol = tol
    expect = ref
    if out.dtype in (torch.float16, torch.bfloat16):
        expect = ref.to(out.dtype).double()
        rtol = tol + torch.finfo(out.dtype).eps
    torch.testing.assert_close(out.double(), expect, rtol=rtol, atol=tol, equal_nan=True)
