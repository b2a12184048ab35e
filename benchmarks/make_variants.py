"""Build schedule variants of a spec (lanes, chunk, warps) for a tuning run on a GPU.

    python benchmarks/make_variants.py specs/mean.red bench_variants/

Each variant is verified like any build (the empirical check is skipped: the
GPU run compares bits itself). The GPU script imports every module it finds.
"""

from __future__ import annotations

import itertools
import re
import sys
import tempfile
from pathlib import Path

from redgen.pipeline import build_spec

LANES = (128, 256)
CHUNKS = (1024, 2048, 4096)
WARPS = (2, 4)
ROWS = (1, 4)  # tile M: rows per program of the K == 1 kernel


def variant(text: str, lanes: int, chunk: int, warps: int, rows: int) -> str:
    text = re.sub(r"^tile .*$", f"tile   N = {lanes}, K = 16, M = {rows}", text, flags=re.M)
    text = re.sub(r"^split .*$", f"split  N fixed_size {chunk}", text, flags=re.M)
    return re.sub(r"^warps .*$", f"warps  {warps}", text, flags=re.M)


def main(spec: str, out: str) -> None:
    dest = Path(out)
    dest.mkdir(parents=True, exist_ok=True)
    text = Path(spec).read_text()
    stem = Path(spec).stem
    with tempfile.TemporaryDirectory() as d:
        for lanes, chunk, warps, rows in itertools.product(LANES, CHUNKS, WARPS, ROWS):
            name = f"{stem}_l{lanes}_c{chunk}_w{warps}_m{rows}"
            p = Path(d) / f"{name}.red"
            p.write_text(variant(text, lanes, chunk, warps, rows))
            (dest / f"{name}.py").write_text(build_spec(p, "cuda", empirical=False).source)
            print(name)


if __name__ == "__main__":
    main(*sys.argv[1:])
