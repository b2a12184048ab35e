#!/usr/bin/env bash
# Run 102: run102.py (the stack in groups of leaves; argmax's long rows).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-560} python3 _scratch/run102.py "$@" 2>&1 | grep -v Warn | tee -a $OUT/run102.log
