"""Names (issue 10): whatever a spec calls its op, axes, inputs, parameters, reductions,
locals and outputs, the emitted module imports and computes what the spec says.

Each spec under tests/specs/names/ is built for both targets, imported, and run under
the interpreter on small inputs; the result is compared with a torch expression written
here by hand (not with redgen.reference, so that the two meet only in the spec).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch

from redgen.pipeline import build_spec
from redgen.tolerances import assert_accurate

NAMES = Path(__file__).parent / "specs" / "names"


def _load(tmp_path: Path, spec: str, target: str):
    built = build_spec(NAMES / spec, target, empirical=False)
    path = tmp_path / f"_names_{target}_{built.op.name}.py"
    path.write_text(built.source)
    m = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(m)
    m.loader.exec_module(mod)
    return mod, getattr(mod, built.op.name), built.source


def _x(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


TARGETS = ("cuda", "ascend")


def _code_names(src: str, op: str) -> set[str]:
    """Every Python name token of the module before its public wrapper `def <op>(`:
    comments, docstrings and string literals are not NAME tokens."""
    import io
    import tokenize

    body = src.split(f"\ndef {op}(")[0]
    return {t.string for t in tokenize.generate_tokens(io.StringIO(body).readline) if t.type == tokenize.NAME}


@pytest.mark.parametrize("target", TARGETS)
def test_param_named_ok_scales_the_sum(tmp_path, target):
    _, fn, src = _load(tmp_path, "param_ok.red", target)
    x = _x(3, 700)
    assert_accurate(fn(x, dim=1), 2.0 * x.double().sum(1), torch.float32)
    assert_accurate(fn(x, dim=1, ok=-1.0), -x.double().sum(1), torch.float32)  # the public keyword
    assert "p_0" in _code_names(src, "scaled_sum")  # the kernels read the parameter as p_0 (`ok` is their mask)


@pytest.mark.parametrize("target", TARGETS)
def test_reduce_axis_named_k_reduces_the_whole_row(tmp_path, target):
    _, fn, _ = _load(tmp_path, "reduce_axis_K.red", target)
    x = _x(5, 1000)
    assert_accurate(fn(x, dim=1), x.double().mean(1), torch.float32)


@pytest.mark.parametrize("target", TARGETS)
def test_axes_b_l_c_divide_by_the_reduce_length(tmp_path, target):
    _, fn, _ = _load(tmp_path, "axes_BLC.red", target)
    x = _x(2, 300, 5)
    assert_accurate(fn(x, dim=1), x.double().mean(1), torch.float32)
    xb = x.to(torch.bfloat16)
    assert_accurate(fn(xb, dim=1), xb.double().mean(1), torch.bfloat16)


@pytest.mark.parametrize("target", TARGETS)
def test_python_keywords_builtins_and_module_names(tmp_path, target):
    mod, fn, src = _load(tmp_path, "python_names.red", target)
    assert mod.torch is torch and mod.triton.__name__ == "triton"  # nothing rebound
    x, w = _x(4, 200, seed=1), _x(200, seed=2)
    # `lambda` and `_launch` cannot be argument names: the launcher takes p_0 and p_1.
    y, full = fn(x, w, dim=1, p_0=0.5, p_1=1.0)
    xd, wd = x.double(), w.double()
    m = xd.amax(1, keepdim=True)
    c = (torch.exp(xd - m) * wd).sum(1, keepdim=True)
    assert_accurate(y, (c * 0.5 + 1.0) / 200, torch.float32)
    assert_accurate(full, torch.exp(xd - m) / c, torch.float32)
    assert "lambda -> p_0" in src and "_launch -> p_1" in src


@pytest.mark.parametrize("target", TARGETS)
def test_spec_names_that_look_like_the_emitters(tmp_path, target):
    _, fn, _ = _load(tmp_path, "mangled_names.red", target)
    x, w = _x(2, 100, 3, seed=3), _x(100, seed=4)
    want = (x.double() * w.double()[None, :, None]).sum(1) + 3.0
    assert_accurate(fn(x, w, dim=1), want, torch.float32)
    # p_0, in_0 and out_0 are the emitter's own names: the launcher takes them as they are
    # only when they are the emitter's name for that very argument.
    assert_accurate(fn(x, w, dim=1, p_0=1.0), want - 2.0, torch.float32)


@pytest.mark.parametrize("target", TARGETS)
def test_generated_code_has_no_spec_name_outside_comments_and_strings(tmp_path, target):
    mod, fn, src = _load(tmp_path, "unique_names.red", target)
    leaked = sorted(n for n in _code_names(src, "zzop") if n.startswith("zz"))
    assert leaked == [], leaked
    x, w = _x(3, 150, 2, seed=5), _x(150, seed=6)
    y, z = fn(x, w, dim=1, zzp=3.0)
    xd, wd = x.double(), w.double()
    m = xd.amax(1, keepdim=True)
    s = (torch.exp(xd - m) * wd[None, :, None]).sum(1, keepdim=True)
    assert_accurate(y, s * 3.0 / 150, torch.float32)
    assert_accurate(z, torch.exp(xd - m) / s, torch.float32)
