#!/usr/bin/env bash
# Run 99: the GPU empirical check of argmax and argmin (their free_cols form), then run99.py.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo argmax argmin | tr ' ' '\n' | timeout 150 xargs -P 2 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run99_empirical.log | cut -c1-300
timeout 200 python3 _scratch/run99.py argmax argmin 2>&1 | grep -v Warn | tee $OUT/run99.log
timeout 220 python3 _scratch/proto_bench.py 2>&1 | grep -v Warn | tee $OUT/run99b.log
