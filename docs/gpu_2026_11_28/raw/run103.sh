#!/usr/bin/env bash
# Run 103: the GPU empirical check of the eight changed modules (templates of the working tree), then run103.py.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo sum mean nansum vector_norm amax amin argmax argmin | tr ' ' '\n' | timeout 200 xargs -P 8 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run103_empirical.log | cut -c1-300
timeout ${T:-360} python3 _scratch/run103.py "$@" 2>&1 | grep -v Warn | tee $OUT/run103.log
