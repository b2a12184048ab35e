"""The Triton interpreter's tl.reduce with a combine function, a slice at a time (test time only).

The interpreter reduces with a user combine function (the generated lane trees, Welford's
and the argmax pairs) one element at a time: for every output element it walks the reduced
axis and calls the combine on one-element tensors, so a 256-lane tree costs hundreds of
Python-level combines a program. Most of the suite's interpreter time went there.

Here the same fold runs on whole slices: acc = x[..., 0], then acc = combine(acc, x[..., k])
for k = 1, 2, ... along the axis, every output element at once. Each output element sees the
same combines in the same order as in the interpreter's loop, each result stored back in the
input's dtype as the loop stores it; only the number of elements a numpy call takes changes.
tests/test_interpreter_reduce.py runs generated kernels with and without it and compares the
bits. The build's empirical check does not use it: its record names the interpreter it ran
(redgen/verify/worker.py, lean_interpreter).
"""

from __future__ import annotations

import contextlib

import numpy as np

_LOOP = None  # the interpreter's own generic_reduce, once install() has replaced it


def _stored(value, dtype, shape):
    """A combine's result as the interpreter's loop keeps it: in the input's dtype, one per output."""
    from triton.language import core as tl

    data = np.asarray(value.handle.data if isinstance(value, tl.tensor) else value).astype(dtype)
    if data.size == int(np.prod(shape)):
        return data.reshape(shape)
    return np.broadcast_to(data, shape).copy()  # a constant, or a scalar the combine returned


def _slice_reduce(self, given):
    if given[0].handle.data.size == 0:
        return _LOOP(self, given)  # nothing to fold: the interpreter's own zeros
    original_axis = self.axis
    input, axis = self.unravel(given, self.axis)
    datas = [arg.handle.data for arg in input]
    out_shape = datas[0].shape[:axis] + datas[0].shape[axis + 1:]
    acc = [np.take(d, 0, axis=axis).reshape(out_shape) for d in datas]
    for k in range(1, datas[0].shape[axis]):
        acc_t = tuple(self.to_tensor(a, input[j].dtype) for j, a in enumerate(acc))
        in_t = tuple(self.to_tensor(np.take(d, k, axis=axis), input[j].dtype) for j, d in enumerate(datas))
        ret = self.combine_fn.fn(*acc_t, *in_t)
        ret = ret if isinstance(ret, tuple) else (ret,)
        acc = [_stored(r, datas[j].dtype, out_shape) for j, r in enumerate(ret)]
    out = []
    for j, data in enumerate(acc):  # packed as the interpreter's own generic_reduce packs
        if self.keep_dims:
            if original_axis is not None:
                data = np.expand_dims(data, axis)
            else:
                for _ in range(len(datas[0].shape)):
                    data = np.expand_dims(data, 0)
        elif original_axis is None:
            data = data.item()
        out.append(self.to_tensor(data, input[j].dtype))
    return out



def install() -> None:
    """Make every tl.reduce with a combine function in this process fold a slice at a time."""
    global _LOOP
    from triton.runtime.interpreter import ReduceOps

    if ReduceOps.generic_reduce is not _slice_reduce:
        _LOOP = ReduceOps.generic_reduce
        ReduceOps.generic_reduce = _slice_reduce


@contextlib.contextmanager
def element_at_a_time():
    """The interpreter's own loop, for the duration (what the tests compare against)."""
    from triton.runtime.interpreter import ReduceOps

    install()
    ReduceOps.generic_reduce = _LOOP
    try:
        yield
    finally:
        ReduceOps.generic_reduce = _slice_reduce
