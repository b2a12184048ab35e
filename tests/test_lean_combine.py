"""A combiner's lean form (combiners.Combiner.lean_body): softmax_stats with one exp a combine.

cuda's row kernel combines with `_softmax_stats_lean` where its input is 16-bit and its grid is
not short (LEAN). It must be the plain combine's function bit for bit, over every state a kernel
forms; the certificate says why, the empirical check runs it at every reduce length. Checked
here, under the interpreter:
- the two generated functions on every pair of special states (and a wrong lean body fails);
- the row kernel with LEAN on and off, on rows of special values, f32 and bf16;
- the launcher's choice of LEAN, its knob in the replay key, the certificate's note and the
  empirical record's "lean" path; no lean form where there is no row kernel.
(On a GPU: bits equal to the plain modules at 66 points, docs/gpu_2026_11_26/README.md run 1.)
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import struct
import sys
from pathlib import Path

import pytest
import torch
import triton
import triton.language as tl

from redgen import combiners
from redgen.pipeline import build_spec

ROOT = Path(__file__).resolve().parent.parent


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# zeros of both signs, subnormals, +-1, the largest finite values, +-inf, NaN, values whose
# exp rounds differently
VALUES = [0.0, -0.0, _f32(1), _f32(0x80000001), 1.0, -1.0, _f32(0x7F7FFFFF), _f32(0xFF7FFFFF), float("inf"),
          float("-inf"), float("nan"), 88.0, -88.0, 0.5, -3.25]
SUMS = [0.0, 1.0, 0.5, 3.75, 1e-30, 1e30, 4096.0, float("inf"), float("nan")]


def _pairs() -> list[torch.Tensor]:
    """(a0, a1, b0, b1): a is an accumulator (a -inf max holds a +0 sum), b any state."""
    rows = [(a0, a1, b0, b1) for a0, a1, b0, b1 in itertools.product(VALUES, SUMS, VALUES, SUMS)
            if a0 != float("-inf") or a1 == 0.0]
    g = torch.Generator().manual_seed(0)
    r = torch.randn(4096, 4, generator=g)
    r[:, 0] *= 20
    r[:, 2] *= 20
    r[:, 1] = r[:, 1].abs() * 50
    r[:, 3] = r[:, 3].abs() * 50
    t = torch.cat([torch.tensor(rows, dtype=torch.float32), r])
    return [t[:, i].contiguous() for i in range(4)]


@triton.jit
def _both(a0p, a1p, b0p, b1p, m1p, s1p, m2p, s2p, n, plain: tl.constexpr, lean: tl.constexpr, block: tl.constexpr):
    i = tl.program_id(0) * block + tl.arange(0, block)
    ok = i < n
    a0, a1 = tl.load(a0p + i, mask=ok), tl.load(a1p + i, mask=ok)
    b0, b1 = tl.load(b0p + i, mask=ok), tl.load(b1p + i, mask=ok)
    m1, s1 = plain(a0, a1, b0, b1)
    m2, s2 = lean(a0, a1, b0, b1)
    tl.store(m1p + i, m1, mask=ok)
    tl.store(s1p + i, s1, mask=ok)
    tl.store(m2p + i, m2, mask=ok)
    tl.store(s2p + i, s2, mask=ok)


def _agree(plain, lean) -> bool:
    """The two combines' states over every pair: the same bits, a NaN where the other has a NaN
    (numpy keeps an operand's NaN payload where a GPU gives its canonical NaN)."""
    cols = _pairs()
    out = [torch.empty_like(cols[0]) for _ in range(4)]
    n = cols[0].numel()
    _both[(triton.cdiv(n, 1024),)](*cols, *out, n, plain=plain, lean=lean, block=1024)
    same = []
    for x, y in ((out[0], out[2]), (out[1], out[3])):
        nan = torch.isnan(x)
        same.append(bool(torch.equal(nan, torch.isnan(y)))
                    and bool((x.view(torch.int32) == y.view(torch.int32))[~nan].all()))
    return all(same)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf and the like, on purpose
def test_the_lean_combine_is_the_plain_one_bit_for_bit():
    mod = importlib.import_module("generated.cuda.softmax")
    assert _agree(mod._softmax_stats, mod._softmax_stats_lean)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("drop", ["the +inf rule", "the -inf guard", "exp(0) assumed for both sides"])
def test_a_wrong_lean_body_fails_the_check(drop, tmp_path):
    c = combiners.get("softmax_stats")
    body = list(c.lean_body)
    if drop == "the +inf rule":
        body[-1] = "return m, s"
    elif drop == "the -inf guard":
        body[2] = "e = _rg_exp(lo - m)"
    else:
        body[4] = "s = a1 * e + b1 * e"
    src = Path(ROOT / "generated" / "cuda" / "softmax.py").read_text()
    start = src.index("_GPU_EXP = ")
    helper = src[start:src.index("\n\n\n@triton.jit\ndef _max(", start)]
    path = tmp_path / "wrong_lean.py"  # triton.jit reads a kernel's source from its file
    path.write_text("import os\nimport triton\nimport triton.language as tl\n"
                    "_INTERPRET = os.environ.get('TRITON_INTERPRET') == '1'\n" + helper + "\n\n\n@triton.jit\n"
                    "def wrong(a0, a1, b0, b1):\n" + "".join(f"    {line}\n" for line in body))
    spec = importlib.util.spec_from_file_location("wrong_lean", path)
    m = importlib.util.module_from_spec(spec)
    sys.modules["wrong_lean"] = m
    spec.loader.exec_module(m)
    plain = importlib.import_module("generated.cuda.softmax")._softmax_stats
    assert not _agree(plain, m.wrong)


def _rows(rows: int, n: int, dtype) -> torch.Tensor:
    g = torch.Generator().manual_seed(rows + n)
    x = (torch.randn(rows, n, generator=g) * 4).to(dtype)
    x[0, 5] = float("inf")
    x[1] = float("-inf")
    x[1, 7] = 3.0
    x[2, n // 2] = float("nan")
    x[min(3, rows - 1)] = float("-inf")
    return x


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_the_row_kernel_gives_the_same_bits_with_the_lean_combine(op, dtype, monkeypatch):
    mod = importlib.import_module(f"generated.cuda.{op}")
    x = _rows(6, 1000, dtype)
    monkeypatch.setattr(mod, "ROW_LEAN_ITEMSIZE", 0)  # never
    plain = getattr(mod, op)(x, -1)
    monkeypatch.setattr(mod, "ROW_LEAN_ITEMSIZE", 8)  # every dtype, and every grid:
    monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", -1)
    lean = getattr(mod, op)(x, -1)
    # bit for bit, a NaN where the other has one (numpy keeps a NaN's sign and payload where a
    # GPU gives its canonical NaN: the GPU run compared the NaN rows' bits too)
    bits = {2: torch.int16, 4: torch.int32}[plain.element_size()]
    nan = torch.isnan(plain)
    assert torch.equal(nan, torch.isnan(lean))
    assert torch.equal(plain.view(bits)[~nan], lean.view(bits)[~nan])
    assert nan[0].all() and not nan[1].any()


def test_the_launcher_takes_the_lean_combine_for_16_bit_rows_on_long_grids(monkeypatch):
    mod = importlib.import_module("generated.cuda.softmax")
    seen = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, args, consts: seen.append((grid, consts.get("LEAN"))))
    mod._PLANS.clear()
    for rows, dtype in ((300, torch.bfloat16), (300, torch.float16), (300, torch.float32), (200, torch.bfloat16)):
        mod._run(torch.zeros(rows, 4096, dtype=dtype), -1, None)
    # 300 rows of 4096: 300 programs of one row; 200: a short grid (ROW_FEW_PROGRAMS = 256)
    assert seen == [((300,), True), ((300,), True), ((300,), False), ((200,), False)]
    assert "ROW_LEAN_ITEMSIZE" in mod._knobs.__code__.co_names


def test_what_is_certified_and_checked():
    for op in ("softmax", "log_softmax"):
        built = build_spec(ROOT / "specs" / f"{op}.red", "cuda", empirical=False)
        assert any(n.startswith("the row kernel's combine of softmax_stats in its lean form")
                   for n in built.certificate.not_order_shaping)
        mod = importlib.import_module(f"generated.cuda.{op}")
        assert "lean" in mod.CERTIFICATE["empirical"]["paths"]
    for spec, target in (("logsumexp", "cuda"), ("softmax", "ascend")):  # no row kernel there
        built = build_spec(ROOT / "specs" / f"{spec}.red", target, empirical=False)
        assert "_lean" not in built.source and "LEAN" not in built.source
