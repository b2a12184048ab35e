#!/usr/bin/env bash
# Run 100: the GPU empirical check of the modules this change touched (cols_stack and free_cols forms),
# then run100.py (timings and bits against the modules before the change).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo sum mean nansum vector_norm amax amin nll_loss mean_2axes argmax argmin | tr ' ' '\n' | timeout 240 xargs -P 10 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run100_empirical.log | cut -c1-300
timeout 330 python3 _scratch/run100.py sum vector_norm amax argmax mean nansum amin nll_loss argmin mean_2axes 2>&1 | grep -v Warn | tee $OUT/run100.log
