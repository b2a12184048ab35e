"""Batch-invariant mode for contractions: aten mm, addmm, bmm (and their .out) -> redgen.

Registered by redgen/runtime/mode.py (its ROUTES table ends with MATMUL_ROUTES), so
`redgen.batch_invariant()` routes them like the reductions: on CUDA, and on CPU under
TRITON_INTERPRET=1; a call the kernels do not cover (float64, mixed dtypes, addmm with
beta/alpha other than 1 or a bias that is not [N], shapes torch rejects) falls back to
torch's own kernel with the mode's BatchInvarianceWarning (or NotCovered when strict).

torch.matmul and torch.nn.functional.linear are CompositeImplicitAutograd: they reach
aten as mm / addmm / bmm (linear(x, w, b) is addmm(b, x, w.t()) on the flattened rows,
the transposed weight read in place through its strides), so routing those three
covers them; torch.matmul of a 1-D operand (mv, dot) is not routed.

Direct calls, for code that wants redgen's contractions without the mode (the attention
family's end-to-end tests, say): `mm`, `addmm`, `bmm`, `linear` below.
"""

from __future__ import annotations

from typing import Any

import torch

from redgen.runtime.loader import load
from redgen.runtime.route import Args, Fns, Route, _Fallback, _float_input, _into_out

__all__ = ["MATMUL_ROUTES", "addmm", "bmm", "linear", "mm"]


def _operands(x: Any, y: Any, ndim: int) -> None:
    _float_input(x, "self")
    _float_input(y, "mat2")
    if x.dtype != y.dtype:
        raise _Fallback(f"mixed dtypes {x.dtype} and {y.dtype}")
    if x.ndim != ndim or y.ndim != ndim or x.shape[-1] != y.shape[-2] or x.shape[:-2] != y.shape[:-2]:
        raise _Fallback("shapes torch rejects")  # torch's kernel raises its own error


def _mm(fns: Fns, a: Args) -> Any:
    x, y = a["self"], a["mat2"]
    _operands(x, y, 2)
    return fns["matmul"](x, y)


def _bmm(fns: Fns, a: Args) -> Any:
    x, y = a["self"], a["mat2"]
    _operands(x, y, 3)
    return fns["bmm"](x, y)


def _addmm(fns: Fns, a: Args) -> Any:
    bias, x, y = a["self"], a["mat1"], a["mat2"]
    _operands(x, y, 2)
    _float_input(bias, "self")
    if a["beta"] != 1 or a["alpha"] != 1:
        raise _Fallback("beta or alpha other than 1")
    if bias.dtype != x.dtype:
        raise _Fallback(f"bias dtype {bias.dtype} differs from {x.dtype}")
    n = y.shape[1]
    if bias.ndim == 2 and bias.shape[0] == 1:
        bias = bias[0]
    if bias.ndim != 1 or bias.shape[0] != n:
        raise _Fallback(f"bias of shape {tuple(a['self'].shape)} (covered: [N] or [1, N])")
    return fns["addmm"](x, y, bias)


MATMUL_ROUTES: tuple[Route, ...] = (
    Route("mm.default", ("matmul",), _mm),
    Route("mm.out", ("matmul",), _into_out(_mm)),
    Route("addmm.default", ("addmm",), _addmm),
    Route("addmm.out", ("addmm",), _into_out(_addmm)),
    Route("bmm.default", ("bmm",), _bmm),
    Route("bmm.out", ("bmm",), _into_out(_bmm)),
)


# --- direct calls -------------------------------------------------------------------


def mm(a: torch.Tensor, b: torch.Tensor, *, target: str = "cuda") -> torch.Tensor:
    """a[M, K] @ b[K, N] with redgen's batch-invariant kernel (any strides)."""
    return load("matmul", target)(a, b)


def addmm(bias: torch.Tensor, a: torch.Tensor, b: torch.Tensor, *, target: str = "cuda") -> torch.Tensor:
    """bias[N] + a[M, K] @ b[K, N], the bias added to the f32 sum."""
    return load("addmm", target)(a, b, bias)


def bmm(a: torch.Tensor, b: torch.Tensor, *, target: str = "cuda") -> torch.Tensor:
    """a[B, M, K] @ b[B, K, N]."""
    return load("bmm", target)(a, b)


def linear(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor | None = None, *,
           target: str = "cuda") -> torch.Tensor:
    """torch.nn.functional.linear: x[..., K] @ w[N, K]^T (+ bias[N]); the leading dims of x are
    flattened into rows (a row's bits do not depend on how many rows there are)."""
    rows = x.reshape(-1, x.shape[-1])
    if bias is None:
        y = load("matmul", target)(rows, w.t())
    else:
        y = load("linear", target)(rows, w, bias)
    return y.reshape(*x.shape[:-1], w.shape[0])
