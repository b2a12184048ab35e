"""Run a script of generated-kernel calls in a fresh interpreter process, and compare two runs' bits
(the interpreter savings' tests: test_empirical_lean.py, test_interpreter_reduce.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent


def run_script(script: str, mode: str, out: Path) -> list[torch.Tensor]:
    """`script` under TRITON_INTERPRET=1 with argv [mode, out]; the tensors it saved to `out`."""
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script, mode, str(out)], env=env, check=True, cwd=ROOT, timeout=600)
    return torch.load(out)


def assert_same_bits(a: list[torch.Tensor], b: list[torch.Tensor], count: int) -> None:
    assert len(a) == len(b) == count
    for x, y in zip(a, b, strict=True):
        assert torch.equal(x.view(torch.uint8) if x.is_floating_point() else x,
                           y.view(torch.uint8) if y.is_floating_point() else y)
