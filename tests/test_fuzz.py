"""A bounded run of scripts/fuzz.py (issue 13): seeded, so a failure reproduces with
`python scripts/fuzz.py --seed 0 --inputs 3000 --run-every 25`. The long run's figures are in
docs/robustness.md."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import fuzz  # noqa: E402


def test_bounded_fuzz_run_has_no_traceback_hang_misplaced_caret_or_broken_module(tmp_path, capsys):
    report = tmp_path / "fuzz.json"
    rc = fuzz.main(["--seed", "0", "--inputs", "3000", "--run-every", "25", "--json", str(report)])
    out, err = capsys.readouterr()
    assert rc == 0, err[-4000:]
    import json

    figures = json.loads(report.read_text())
    assert figures["bad"] == dict.fromkeys(figures["bad"], 0)
    stats = figures["stats"]
    # the run reaches every stage: coded errors of the front end and the verifier, proofs
    # for both targets, emitted modules imported, the odd files of the CLI
    assert stats["proved cuda"] > 50 and stats["proved ascend"] > 50 and stats["imported"] > 50
    assert stats["error E001"] and stats["error E004"] and stats["error V201"] and stats["error F501"]
    assert stats["cli cases"] >= 10 and stats["kernel runs"] >= 3
