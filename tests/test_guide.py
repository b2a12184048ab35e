"""docs/writing_an_op.md: its worked example builds and matches torch, its specs check.

- `tests/specs/examples/l2_normalize.red` (the guide's worked example, not shipped
  in specs/) builds for cuda into a temporary directory; the module imports and
  matches torch.nn.functional.normalize, bitwise batch invariant;
- the guide shows that file verbatim;
- every `red` code block of the guide parses and checks.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
import torch

from redgen.check import check
from redgen.cli import main
from redgen.parse import parse
from tests.tolerances import assert_accurate

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "writing_an_op.md"
EXAMPLE = ROOT / "tests" / "specs" / "examples" / "l2_normalize.red"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", GUIDE.read_text(), flags=re.S | re.M)


@pytest.fixture(scope="module")
def l2_normalize(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    # The proof runs; the interpreter run (`redgen verify`) is left to the full build.
    assert main(["build", str(EXAMPLE), "--target", "cuda", "--out", str(out), "--no-empirical"]) == 0
    path = out / "cuda" / "l2_normalize.py"
    spec = importlib.util.spec_from_file_location("_guide_l2_normalize", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # triton reads kernel source through the module
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop(spec.name, None)


def _randn(*shape, dtype=torch.float32, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape, dim", [((8, 1000), 1), ((3, 37, 4), 1), ((5, 6, 7), -1), ((2, 4133), -1)])
def test_l2_normalize_matches_torch(l2_normalize, shape, dim, dtype):
    x = _randn(*shape, dtype=dtype)
    y = l2_normalize.l2_normalize(x, dim)
    assert y.shape == x.shape and y.dtype == dtype and y.is_contiguous()
    assert_accurate(y, torch.nn.functional.normalize(x.double(), dim=dim), dtype)


def test_l2_normalize_eps_and_zero_rows(l2_normalize):
    x = _randn(4, 50)
    x[1] = 0.0  # a zero row: 0 / eps = 0, as torch
    ref = torch.nn.functional.normalize(x.double(), dim=1, eps=1e-3)
    assert_accurate(l2_normalize.l2_normalize(x, 1, eps=1e-3), ref, x.dtype)
    assert torch.equal(l2_normalize.l2_normalize(x, 1)[1], torch.zeros(50))


@pytest.mark.parametrize("split_below", [0, 1 << 62], ids=["fused", "split"])
def test_l2_normalize_batch_invariant(l2_normalize, split_below, monkeypatch):
    monkeypatch.setattr(l2_normalize, "SPLIT_BELOW", split_below)
    x = _randn(7, 4133, seed=1)  # two chunks
    y = l2_normalize.l2_normalize(x, 1)
    for b in (1, 2, 3):
        assert torch.equal(l2_normalize.l2_normalize(x[:b], 1), y[:b])
    assert torch.equal(l2_normalize.l2_normalize(x[5:6], 1), y[5:6])


def test_l2_normalize_certificate(l2_normalize):
    cert = l2_normalize.CERTIFICATE
    assert cert["depends_on"] == ["N"] and cert["independent_of"] == ["M", "K", "cores"]
    assert "every reduction (ss) behind y[m, n, k]" in cert["statement"]


def test_guide_shows_the_example_file():
    assert EXAMPLE.read_text() in _blocks("red")


def test_every_red_block_checks():
    blocks = _blocks("red")
    assert len(blocks) >= 3
    for i, text in enumerate(blocks):
        op = check(parse(text, f"{GUIDE.name}[block {i}]"))
        assert op.name
