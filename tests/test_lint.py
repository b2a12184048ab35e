"""The project's own lint, run by CI like any test (ruff is pinned in the test extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "redgen", "tests", "scripts", "benchmarks",
                           "examples"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
