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

LANES = (256, 512, 1024)
CHUNKS = (4096, 8192)
WARPS = (4, 8)


def variant(text: str, lanes: int, chunk: int, warps: int) -> str:
    text = re.sub(r"^tile .*$", f"tile   N = {lanes}, K = 16", text, flags=re.M)
    text = re.sub(r"^split .*$", f"split  N fixed_size {chunk}", text, flags=re.M)
    return re.sub(r"^warps .*$", f"warps  {warps}", text, flags=re.M)


def main(spec: str, out: str) -> None:
    dest = Path(out)
    dest.mkdir(parents=True, exist_ok=True)
    text = Path(spec).read_text()
    stem = Path(spec).stem
    with tempfile.TemporaryDirectory() as d:
        for lanes, chunk, warps in itertools.product(LANES, CHUNKS, WARPS):
            if chunk < lanes:
                continue
            name = f"{stem}_l{lanes}_c{chunk}_w{warps}"
            p = Path(d) / f"{name}.red"
            p.write_text(variant(text, lanes, chunk, warps))
            (dest / f"{name}.py").write_text(build_spec(p, "cuda", empirical=False).source)
            print(name)


if __name__ == "__main__":
    main(*sys.argv[1:])
