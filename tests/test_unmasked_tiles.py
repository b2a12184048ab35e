"""cuda's chunk walks combine a tile that lies wholly inside the row and its chunk unmasked.

The mask of such a tile holds at every lane for every row that is stored, so the unmasked
combine gives the masked one's bits (rows past M, which a program of BLOCK rows may also
hold, are never stored). Two places do it:
- the row kernel: the first CF tiles of a chunk, the row's last tile excepted;
- the fused and split walks: the UNROLL groups that end inside the chunk (before gf).
Checked here under the interpreter, bit for bit: the row kernel against the chunked walks,
and the chunked walks against the same module with every group masked (gf = c0, the walk
before this change). The cases: chunks that are not a whole number of tiles (fixed_count:
the last tile of every chunk is cut short and stays masked), rows past M sharing a program,
-inf, +inf and NaN among the elements.
"""

from __future__ import annotations

import pytest
import torch

from redgen.pipeline import build_spec
from tests.load_source import load_source

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
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("rowmask")
    (d / "rowmask.red").write_text(SPEC)
    source = build_spec(d / "rowmask.red", "cuda", empirical=False).source
    assert "if u < CF and c * CT + u < TILES - 1:" in source
    masked = source.replace("gf = c0 + (c1 - c0) // (UNROLL * LANES) * (UNROLL * LANES)", "gf = c0")
    assert masked != source
    return load_source(d, "_rowmask_cuda", source), load_source(d, "_rowmask_masked", masked)


@pytest.fixture
def mod(built):
    return built[0]


def _special(m_rows, n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(m_rows, n, generator=g) * 4
    x[0, 3] = float("-inf")
    x[-1, n // 2] = float("-inf")
    if m_rows > 2:
        x[1, n - 1] = float("inf")
        x[2, 0] = float("nan")
    return x


def _bits(t):
    return t.view(torch.int32)


@pytest.mark.parametrize("m_rows, n", [(5, 200), (3, 1000), (1, 64), (2, 191)])
def test_row_kernel_equals_the_chunked_walk(mod, monkeypatch, m_rows, n):
    x = _special(m_rows, n, n)
    chunk, _, shape, block = mod._schedule(m_rows, n, 1, 4)[:4]
    assert shape == "row"
    if (m_rows, n) == (5, 200):  # 67-element chunks: two tiles each, the second cut short
        assert chunk == 67 and block > m_rows  # one program: rows past M share it
    held = mod.rowmask(x)
    monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
    for knobs in ({"SPLIT_BELOW": 0, "UNROLL": 1}, {"SPLIT_BELOW": 1 << 62}):
        for k, v in knobs.items():
            monkeypatch.setattr(mod, k, v)
        assert mod._schedule(m_rows, n, 1, 4)[2] == "rows"
        assert torch.equal(_bits(mod.rowmask(x)), _bits(held))
    finite = ~(x.isnan() | x.isposinf()).any(dim=1)
    want = torch.softmax(x[finite].double(), dim=1)
    torch.testing.assert_close(held[finite].double(), want, rtol=1e-4, atol=1e-4)
    assert held[~finite].isnan().all()


@pytest.mark.parametrize("m_rows, n", [(3, 1000), (2, 9000), (4, 6000)])
@pytest.mark.parametrize(
    "knobs",
    [
        {"SPLIT_BELOW": 0, "UNROLL": 1},
        {"SPLIT_BELOW": 0, "UNROLL": 3},
        {"SPLIT_BELOW": 0},
        {"SPLIT_BELOW": 1 << 62, "UNROLL": 2},
    ],
)
def test_chunk_walk_equals_the_masked_walk(built, monkeypatch, m_rows, n, knobs):
    """The walks (row kernel off) against the same module with every group masked."""
    new, masked = built
    x = _special(m_rows, n, m_rows + n)
    for mod in built:
        monkeypatch.setattr(mod, "ROW_MAX_TILES", 0)
        for k, v in knobs.items():
            monkeypatch.setattr(mod, k, v)
    assert new._schedule(m_rows, n, 1, 4)[2] == "rows"
    assert torch.equal(_bits(new.rowmask(x)), _bits(masked.rowmask(x)))


def test_index_combiners_unmask_only_their_folded_rows_walks():
    """argmax's rows walks fold each group to one pair (Plan.group_walk) and take the unmasked groups
    too; its cols kernels combine element by element, measured slower unmasked, and stay masked. The
    certificate says which."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for name, index in (("argmax", True), ("argmin", True), ("softmax", False), ("sum", False)):
        b = build_spec(root / "specs" / f"{name}.red", "cuda", empirical=False)
        assert "gf = c0 + (c1 - c0) // (UNROLL * LANES)" in b.source, name
        cols = re.search(r"def _k_cols_fused\(.*?\n(?=@|def |[A-Za-z_]\w* = )", b.source, re.S)
        assert cols and ("gf = c0" in cols.group(0)) is (not index), name
        notes = b.certificate.not_order_shaping
        assert any("combines its elements unmasked, where no index" in line for line in notes), name
        assert any("in the rows walks alone, where each that does folds its groups" in line
                   for line in notes) is index, name
