#!/usr/bin/env bash
# Run 118: the GPU empirical check of the changed modules (generated/), then run118.py on the ops named.
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
echo ${MODS:-sum mean nansum vector_norm amax amin argmax argmin} | tr ' ' '\n' | PYTHONPATH=$PWD:/tmp/site PATH=/tmp/site/bin:$PATH timeout 240 xargs -P 8 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run118_empirical.log | cut -c1-300
timeout ${T:-300} python3 _scratch/run118.py "$@" 2>&1 | grep -v Warn | tee $OUT/run118.log
