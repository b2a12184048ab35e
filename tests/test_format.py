"""Generated modules are formatted Python (redgen/fmt.py): `ruff format --check` passes on a
fresh build of every kernel family and target, and on the committed generated/. Kernel lines
computing a spec expression of a reduction op name its spec line (`# spec:LINE`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from redgen import fmt
from redgen.cli import main
from redgen.errors import FormatFailed

ROOT = Path(__file__).resolve().parent.parent
# a reduction with outputs over the reduce axis (and its short op, with a second stage), an
# argmax, a contraction, attention
SPECS = ("softmax", "softmax_held", "argmax", "matmul", "attention")


def _format_check(*paths: Path) -> subprocess.CompletedProcess:
    # The repository's settings (pyproject.toml [tool.ruff]); cwd = the repository.
    return subprocess.run([sys.executable, "-m", "ruff", "format", "--check", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True)


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_fresh_build_is_formatted(target: str, tmp_path: Path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    for s in SPECS:
        (specs / f"{s}.red").write_bytes((ROOT / "specs" / f"{s}.red").read_bytes())
    assert main(["build", str(specs), "--target", target, "--no-empirical", "-q", "--out", str(tmp_path / "gen")]) == 0
    mods = sorted((tmp_path / "gen" / target).glob("*.py"))
    assert len(mods) == len(SPECS) + 1  # and __init__.py
    proc = _format_check(*mods)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # softmax.red: line 12 `reduce N: (m, s) = softmax_stats(x)`, 13 `y = exp(x - m) / s`
    text = (tmp_path / "gen" / target / "softmax.py").read_text()
    assert set(re.findall(r"# spec:(\d+)$", text, re.M)) == {"12", "13"}
    assert re.search(r"r_0_acc, r_0_sacc = _softmax_stats\(\n(?:.*\n)*?\s*\)  # spec:12$", text, re.M)


def test_committed_modules_are_formatted():
    """Fails until generated/ is rebuilt with a formatting redgen (`redgen build specs/ --target ...`)."""
    proc = _format_check(ROOT / "generated")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_another_ruff_version_is_refused(monkeypatch):
    monkeypatch.setattr(fmt, "RUFF_VERSION", "0.0.1")
    fmt._check_version.cache_clear()
    try:
        with pytest.raises(FormatFailed) as e:
            fmt.format_source("x = 1\n")
    finally:
        fmt._check_version.cache_clear()
    assert e.value.code == "F506" and "ruff 0.0.1" in e.value.message and "pip install ruff==0.0.1" in e.value.message


def test_invalid_emitted_text_is_refused():
    with pytest.raises(FormatFailed) as e:
        fmt.format_source("def f(:\n")
    assert e.value.code == "F506" and "refused" in e.value.message


def test_formatting_is_idempotent_and_keeps_the_code():
    text = "x=[1,\n 2]\ndef f( a ):\n    return a+1\n"
    once = fmt.format_source(text)
    assert once == "x = [1, 2]\n\n\ndef f(a):\n    return a + 1\n"
    assert fmt.format_source(once) == once
