#!/usr/bin/env bash
# Run 90: the GPU empirical check of the modules with cols kernels (lark, z3 and ruff from .whl).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo sum mean amax amin argmax argmin nansum softmax_held log_softmax_held var_held std_held vector_norm nll_loss mean_2axes | tr ' ' '\n' | timeout 400 xargs -P 8 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run90_empirical.log | cut -c1-200
