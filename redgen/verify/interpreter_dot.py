"""tl.dot in one fixed order under the Triton interpreter.

The interpreter computes `tl.dot(a, b, acc)` as `np.matmul(a, b) + acc`, and numpy hands
the product to its BLAS, whose summation order depends on the tile's shape and on the
BLAS build (OpenBLAS 0.3.31, shipped with numpy 2.4 wheels, picks different kernels for
a 16-row and a 64-row tile). A contraction plan picks its tile by M (narrow tiles for
decode), and attention's prefill and decode tiles differ, so under plain numpy the same
output element comes out of differently ordered sums: the empirical check then reports
the BLAS, not the kernel. A GPU's tensor cores reduce each MMA's k-slice in one fixed way
whatever the tile's M; this dot does the same, in a way numpy cannot reorder: the
accumulator, then the products added one k at a time (acc + a[:, 0] b[0, :] + ...), each
step rounded to the accumulator's dtype. What the empirical check then tests is the
kernel's own order: the k-chunks, the split-K combine, the launch paths. The certificate
says which dot ran (`DOT_MODEL`).
"""

from __future__ import annotations

import numpy as np

DOT_MODEL = "tl.dot in k order (acc + a[:, k] b[k, :] for k = 0, 1, ...)"


def _dot_in_k_order(self, a, b, d, input_precision, max_num_imprecise_acc):
    from triton.language import core as tl
    from triton.runtime.interpreter import TensorHandle, _convert_float

    a_data, b_data = a.data, b.data
    if (a.dtype.primitive_bitwidth == 8 and a.dtype.is_floating()) or \
       (b.dtype.primitive_bitwidth == 8 and b.dtype.is_floating()):
        # as the interpreter does: fp8 operands go to f16 first (exact)
        a_data = _convert_float(a_data, a.dtype, tl.float16, None).view(np.float16)
        b_data = _convert_float(b_data, b.dtype, tl.float16, None).view(np.float16)
    out = d.data.dtype
    a_data, b_data = a_data.astype(out), b_data.astype(out)
    acc = np.array(d.data, dtype=out, copy=True)
    for k in range(a_data.shape[-1]):
        acc = acc + a_data[..., :, k:k + 1] * b_data[..., k:k + 1, :]
    return TensorHandle(acc, d.dtype.scalar)


def install() -> None:
    """Make every tl.dot run by the interpreter in this process use the fixed order."""
    from triton.runtime.interpreter import InterpreterBuilder

    InterpreterBuilder.create_dot = _dot_in_k_order
