#!/usr/bin/env bash
# Run 88: the GPU empirical check of the modules with cols kernels, then run88.py.
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
echo sum mean amax amin argmax argmin nansum softmax_held log_softmax_held var_held std_held vector_norm nll_loss mean_2axes | tr ' ' '\n' | timeout 250 xargs -P 8 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run88_empirical.log | cut -c1-160
timeout 300 python _scratch/run88.py 2>&1 | grep -v Warn | tee $OUT/run88.log
