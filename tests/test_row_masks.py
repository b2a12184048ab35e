"""cuda's row kernel combines a tile that lies wholly inside the row and its chunk unmasked.

The mask of such a tile holds at every lane for every row that is stored, so the unmasked
combine gives the masked one's bits (rows past M, which a program of BLOCK rows may also
hold, are never stored). Checked here under the interpreter, bit for bit against the chunked
walks (the row kernel off), where the chunk is not a whole number of tiles (fixed_count: the
last tile of every chunk is cut short and stays masked), where rows past M share a program,
and with -inf, +inf and NaN among the elements.
"""

from __future__ import annotations

import importlib.util

import pytest
import torch

from redgen.pipeline import build_spec

SPEC = """op rowmask
in   x[M, N] : f32
out  y[M, N] : like x
acc  f32
reduce N: (m, s) = softmax_stats(x)
y = exp(x - m) / s
tile   N = 64
split  N fixed_count 3
warps  4
cores  40
"""


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    d = tmp_path_factory.mktemp("rowmask")
    (d / "rowmask.red").write_text(SPEC)
    built = build_spec(d / "rowmask.red", "cuda", empirical=False)
    assert "if u < CF and c * CT + u < TILES - 1:" in built.source
    file = d / "_rowmask_cuda.py"
    file.write_text(built.source)
    spec = importlib.util.spec_from_file_location(file.stem, file)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _bits(t):
    return t.view(torch.int32)


@pytest.mark.parametrize("m_rows, n", [(5, 200), (3, 1000), (1, 64), (2, 191)])
def test_row_kernel_equals_the_chunked_walk(mod, monkeypatch, m_rows, n):
    g = torch.Generator().manual_seed(n)
    x = torch.randn(m_rows, n, generator=g) * 4
    x[0, 3] = float("-inf")
    x[-1, n // 2] = float("-inf")
    if m_rows > 2:
        x[1, n - 1] = float("inf")
        x[2, 0] = float("nan")
    chunk, _, shape, block = mod._schedule(m_rows, n, 1)[:4]
    assert shape == "row"
    if (m_rows, n) == (5, 200):  # 67-element chunks: two tiles each, the second cut short
        assert chunk == 67 and block > m_rows  # one program: rows past M share it
    held = mod.rowmask(x)
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    for knobs in ({"SPLIT_BELOW": 0, "UNROLL": 1}, {"SPLIT_BELOW": 1 << 62}):
        for k, v in knobs.items():
            monkeypatch.setattr(mod, k, v)
        assert mod._schedule(m_rows, n, 1)[2] == "rows"
        assert torch.equal(_bits(mod.rowmask(x)), _bits(held))
    finite = ~(x.isnan() | x.isposinf()).any(dim=1)
    want = torch.softmax(x[finite].double(), dim=1)
    torch.testing.assert_close(held[finite].double(), want, rtol=1e-4, atol=1e-4)
    assert held[~finite].isnan().all()
