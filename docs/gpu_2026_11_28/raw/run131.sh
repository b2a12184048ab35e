#!/usr/bin/env bash
# Run 131: run131.py (the GPU empirical check ran in run 128 on modules whose kernels these share).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-330} python3 _scratch/run131.py "$@" 2>&1 | grep -v Warn | tee $OUT/run131.log
