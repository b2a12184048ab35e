"""Generated modules are formatted Python: the emitted text goes through `ruff format`.

Templates lay code out for people reading the templates; ruff then gives every module one
layout, so `ruff format --check generated` passes and a diff of generated/ shows what
changed, not how a template happened to break a line. The version is pinned (a build is
byte-identical for identical inputs only under one formatter) and the settings are the
repository's (pyproject.toml [tool.ruff]), passed explicitly so that a user's own ruff
configuration never changes what redgen writes.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache

from redgen.errors import FormatFailed

RUFF_VERSION = "0.17.6"  # the [project] dependency pins the same version
RUFF_ARGS = ("format", "--isolated", "--line-length", "120", "--target-version", "py310",
             "--stdin-filename", "generated.py", "-")


def _ruff(*args: str, source: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], input=source, capture_output=True, text=True,
                          timeout=120)


@cache
def _check_version() -> None:
    proc = _ruff("--version")
    found = proc.stdout.strip().removeprefix("ruff ") if proc.returncode == 0 else None
    if found != RUFF_VERSION:
        raise FormatFailed(f"generated modules are formatted with ruff {RUFF_VERSION}, but "
                           + (f"ruff {found} is installed" if found else "ruff is not installed")
                           + f" for {sys.executable}: pip install ruff=={RUFF_VERSION}")


def format_source(source: str) -> str:
    """`source` as `ruff format` lays it out (FormatFailed when ruff is missing, another
    version, or refuses the text: emitted code that is not valid Python)."""
    _check_version()
    proc = _ruff(*RUFF_ARGS, source=source)
    if proc.returncode != 0:
        raise FormatFailed(f"ruff format refused an emitted module: {proc.stderr.strip()[:2000]}")
    return proc.stdout
