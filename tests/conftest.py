"""Test setup shared by every test module.

TRITON_INTERPRET must be set before anything imports triton: triton.jit picks
the interpreter when a kernel is decorated, i.e. when a generated module is
imported. The repository root goes on sys.path so that `generated` and
`tests.tolerances` import from this checkout whatever the working directory.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# tl.dot in one fixed order under the interpreter, as in the build's empirical check (the
# reason is in redgen/verify/interpreter_dot.py): numpy's BLAS orders each tile's sums by its shape.
from redgen.verify.interpreter_dot import install as _fixed_order_dot  # noqa: E402

_fixed_order_dot()

# The empirical check's interpreter savings, for the same reason (CI time): they drop only work
# that cannot change a result (redgen/verify/worker.py lean_interpreter; test_empirical_lean.py
# runs kernels with and without them and compares the bits).
from redgen.verify.worker import lean_interpreter as _lean_interpreter  # noqa: E402

_lean_interpreter()

# tl.reduce with a combine function folds a slice at a time, not an element at a time: the same
# combines in the same order for each element (tests/interpreter_reduce.py; test_interpreter_reduce.py
# compares the bits with the interpreter's own loop).
from tests.interpreter_reduce import install as _slice_reduce  # noqa: E402

_slice_reduce()


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_mode_signatures():
    """The mode keeps each route's recorded signatures across enables (runtime/mode.py _KEPT):
    every test starts without any, so what it counts (adapter calls, probes) is its own."""
    from redgen.runtime import mode

    mode._KEPT.clear()
    yield


@pytest.fixture
def adapter_calls(monkeypatch):
    """How many routed calls went through an adapter (the mode's argument binding): a count in a list."""
    from redgen.runtime import mode

    n = [0]
    real = mode._schema_args

    def counting(*a):
        n[0] += 1
        return real(*a)

    monkeypatch.setattr(mode, "_schema_args", counting)
    return n


@pytest.fixture
def attention_mod():
    """The generated cuda attention module (run by the interpreter here), its dense calls'
    geometries forgotten."""
    import importlib

    from redgen.runtime.loader import load

    m = importlib.import_module(load("attention", "cuda").__module__)
    m._GEOMETRY.clear()
    return m
