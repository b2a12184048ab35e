#!/usr/bin/env bash
# Run 129: run129.py (the GPU empirical check ran in run 128 on these modules).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-330} python3 _scratch/run129.py "$@" 2>&1 | grep -v Warn | tee $OUT/run129.log
