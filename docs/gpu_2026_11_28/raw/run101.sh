#!/usr/bin/env bash
# Run 101: the stack walk v2 (a loop with one pointer a column): GPU empirical check (templates of the working
# tree), then run101.py (gen101 against the shipped modules and torch).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo sum mean nansum vector_norm amax amin | tr ' ' '\n' | timeout 100 xargs -P 6 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run101_empirical.log | cut -c1-300
timeout 200 python3 _scratch/run101.py sum vector_norm amax mean nansum amin 2>&1 | grep -v Warn | tee $OUT/run101.log
