"""benchmarks/fp8_bits.py's sorting of differing fp8 bytes (the GPU run's classes), on the CPU."""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import fp8_bits  # noqa: E402


def _f8(codes: list[int]) -> torch.Tensor:
    return torch.tensor(codes, dtype=torch.uint8).view(torch.float8_e4m3fn)


def test_differing_bytes_are_sorted_into_signed_zeros_neighbours_and_the_rest():
    want = _f8([0x80, 0x00, 0x38, 0xB8, 0x38, 0x38, 0x01, 0x7F])
    got = _f8([0x00, 0x80, 0x39, 0xB7, 0xB8, 0x3A, 0x01, 0x7F])
    # two zeros of the other sign; 0x39 and 0xB7 one code from 0x38 / 0xB8; a sign flip and two codes off
    assert fp8_bits.classes(got, want) == (2, 2, 2)
    assert fp8_bits.classes(want, want) == (0, 0, 0)


def test_the_reference_is_the_specs_float32_formula():
    x = torch.tensor([[448.0, -0.0, -1e-9, 3.3], [0.0, 0.0, 0.0, 0.0]])
    q, s = fp8_bits.reference(x, torch.float8_e4m3fn, 448.0)
    assert torch.equal(s, torch.tensor([[1.0], [1.0 / (448 * 512)]]))
    assert q.view(torch.uint8)[0].tolist() == [0x7E, 0x80, 0x80, x[0, 3:].to(torch.float8_e4m3fn).view(torch.uint8).item()]
