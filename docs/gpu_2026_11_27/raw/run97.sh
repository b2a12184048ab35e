#!/usr/bin/env bash
# Run 97: the GPU empirical check of softmax_held and log_softmax_held with the output sweep in TILE lanes.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo softmax_held log_softmax_held | tr ' ' '\n' | timeout 300 xargs -P 2 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run97_empirical.log | cut -c1-300
