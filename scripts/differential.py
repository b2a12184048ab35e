"""A long differential run: random specs (tests/spec_gen.py) through the whole pipeline,
each proved one run under the Triton interpreter against the float64 reference and
checked bitwise for batch invariance.

    python scripts/differential.py [--start 0] [--count 1000] [--minutes 15] [--out FILE]

Prints one line per spec and a summary (specs, proved, refused, failed, comparisons);
writes each failing spec next to --out (a .jsonl of every record) so that it can become
a regression spec under tests/specs/. Exit 1 if any spec failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"  # before triton is imported
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.spec_gen import run  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--minutes", type=float, default=15.0)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    t0 = time.time()
    counts = {"passed": 0, "refused": 0, "FAILED": 0}
    compared = 0
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    with tempfile.TemporaryDirectory() as d:
        seed = args.start
        while seed < args.start + args.count and time.time() - t0 < args.minutes * 60:
            target = "cuda" if seed % 2 == 0 else "ascend"
            rec = run(seed, target, d)
            counts[rec["status"]] += 1
            compared += rec.get("compared", 0)
            print(f"seed {seed} {target}: {rec['status']} {rec.get('detail', '')}", flush=True)
            if out:
                out.write(json.dumps(rec) + "\n")
                out.flush()
            if rec["status"] == "FAILED":
                Path(args.out or ".").with_name(f"differential_fail_{seed}.red").write_text(rec["spec"])
            seed += 1
    n = sum(counts.values())
    print(f"\n{n} specs (seeds {args.start}..{args.start + n - 1}): {counts['passed']} proved and passed, "
          f"{counts['refused']} refused, {counts['FAILED']} failed; {compared} comparisons with the reference "
          f"and bitwise; {time.time() - t0:.0f} s")
    return 1 if counts["FAILED"] else 0


if __name__ == "__main__":
    sys.exit(main())
