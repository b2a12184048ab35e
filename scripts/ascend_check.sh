#!/usr/bin/env bash
# Compile every generated ascend kernel with triton-ascend down to the Ascend adapter IR
# (no NPU, no CANN needed; see scripts/ascend_compile.py and docs/ascend.md), then run
# every module under triton-ascend's own interpreter against a float64 reference, with
# bitwise checks (scripts/ascend_interpret.py; about a minute).
#
#   bash scripts/ascend_check.sh [VENV] [DIR]
#
# VENV (default .venv-ascend): a venv of its own for triton-ascend, which installs a
# package named `triton` and so never shares an environment with upstream triton. It is
# created when missing or incomplete and reused otherwise. DIR defaults to generated/ascend.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-.venv-ascend}"
DIR="${2:-generated/ascend}"
export PIP_DISABLE_PIP_VERSION_CHECK=1

ready() {
    [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as md
assert md.version("triton-ascend") == "3.2.0"
assert md.version("torch").startswith("2.13.0")
try:
    md.version("triton")  # upstream triton in the same env would shadow triton-ascend
    raise SystemExit(1)
except md.PackageNotFoundError:
    pass
import numpy, pybind11, triton.backends.ascend  # noqa: F401
PY
}

if ! ready; then
    echo "ascend_check: setting up $VENV (torch 2.13.0 CPU wheel + triton-ascend 3.2.0)"
    [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
    # torch pinned first, so pip never resolves an unpinned (CUDA) torch.
    "$VENV/bin/pip" install -q torch==2.13.0 'numpy<2.3' pybind11
    "$VENV/bin/pip" install -q triton-ascend==3.2.0
    ready || { echo "ascend_check: $VENV is not a working triton-ascend env" >&2; exit 1; }
fi
"$VENV/bin/python" scripts/ascend_compile.py "$DIR"
TRITON_INTERPRET=1 "$VENV/bin/python" scripts/ascend_interpret.py "$DIR"
