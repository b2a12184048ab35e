"""tests/interpreter_reduce.py (tl.reduce's combine a slice at a time, the suite's interpreter)
gives the interpreter's own bits: on a combine whose result depends on the order, on every
shape of call, and on generated kernels (lane trees, Welford, softmax's combiner, argmax)."""

from __future__ import annotations

import numpy as np
import torch
import triton
import triton.language as tl

from tests.bit_runs import assert_same_bits, run_script
from tests.interpreter_reduce import element_at_a_time


@triton.jit
def _lopsided(a, b):
    # neither commutative nor associative in floating point: any other order shows
    return a * 0.75 + b


@triton.jit
def _pair(a0, a1, b0, b1):
    # a two-component state, as the generated combiners (Welford, the index ops) have
    return a0 * 0.5 + b0 * b1, a1 - b1


@triton.jit
def _kernel(x_ptr, i_ptr, o1, o2, o3, o4, o5, rows: tl.constexpr, cols: tl.constexpr):
    r = tl.arange(0, rows)[:, None]
    c = tl.arange(0, cols)[None, :]
    x = tl.load(x_ptr + r * cols + c)
    i = tl.load(i_ptr + r * cols + c)
    tl.store(o1 + tl.arange(0, rows), tl.reduce(x, 1, _lopsided))
    tl.store(o2 + tl.arange(0, cols)[None, :], tl.reduce(x, 0, _lopsided, keep_dims=True))
    tl.store(o3, tl.reduce(x, None, _lopsided))
    v, w = tl.reduce((x, i), 1, _pair)
    tl.store(o4 + tl.arange(0, rows), v)
    tl.store(o5 + tl.arange(0, rows), w)


def _reduces():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(8, 16, generator=g)
    x[2, 3], x[5, 0] = float("nan"), float("inf")
    i = torch.randint(-5, 5, (8, 16), generator=g, dtype=torch.int32)
    outs = (torch.empty(8), torch.empty(16), torch.empty(1), torch.empty(8), torch.empty(8, dtype=torch.int32))
    _kernel[(1,)](x, i, *outs, rows=8, cols=16)
    return x, i, outs


def _fold(values, reverse=False) -> np.float32:
    values = list(values)[::-1] if reverse else list(values)
    acc = np.float32(values[0])
    for v in values[1:]:
        acc = np.float32(acc * np.float32(0.75)) + np.float32(v)
    return acc


def test_an_order_dependent_combine_gives_the_loops_bits():
    x, _, sliced = _reduces()
    with element_at_a_time():
        _, _, looped = _reduces()
    assert_same_bits(list(sliced), list(looped), 5)
    # The combine's order shows in its result: along the axis, left to right, as the loop folds.
    rows = x.numpy()
    assert [_fold(row) for row in rows[[0, 1, 7]]] == sliced[0][[0, 1, 7]].tolist()
    assert any(_fold(row) != _fold(row, reverse=True) for row in rows[[0, 1, 7]])


SCRIPT = """
import sys, torch
from redgen.verify.interpreter_dot import install
install()
if sys.argv[1] == "sliced":
    from tests.interpreter_reduce import install as sliced
    sliced()
from generated.cuda.softmax import softmax
from generated.cuda.logsumexp import logsumexp
from generated.cuda.var import var
from generated.cuda.layer_norm import layer_norm
from generated.cuda.argmax import argmax
from generated.ascend.logsumexp import logsumexp as logsumexp_ascend
g = torch.Generator().manual_seed(0)
x = torch.randn(2, 300, 3, generator=g)
x[1, 3] = float("nan")
t = torch.randint(-2, 3, (2, 300), generator=g).float()
r = torch.randn(1, 4200, generator=g)
outs = [softmax(x, 1), logsumexp(x, 1), var(x, 1), softmax(x.to(torch.bfloat16), 1), logsumexp_ascend(x, 1),
        *layer_norm(r, None, None), logsumexp(r, 1), argmax(t, 1), argmax(x, 1)]
torch.save(outs, sys.argv[2])
"""


def test_generated_kernels_give_the_loops_bits(tmp_path):
    looped, sliced = run_script(SCRIPT, "looped", tmp_path / "a.pt"), run_script(SCRIPT, "sliced", tmp_path / "b.pt")
    assert_same_bits(looped, sliced, 11)
