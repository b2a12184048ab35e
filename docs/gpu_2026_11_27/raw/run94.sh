#!/usr/bin/env bash
# Run 94: the GPU empirical check of the modules whose kernels changed (lark, z3 and ruff from .whl;
# its long_tile form compares the short walks with the 256-lane ones), then the shipped modules timed.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo softmax_held log_softmax_held rms_norm rms_norm_rstd add_rms_norm layer_norm var_held std_held fp8_quant fp8_quant_e5m2 sum mean amax amin argmax argmin nansum vector_norm nll_loss mean_2axes | tr ' ' '\n' | timeout 420 xargs -P 8 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run94_empirical.log | cut -c1-260
timeout 120 python3 _scratch/run94.py 2>&1 | grep -v Warn | tee $OUT/run94.log
