#!/usr/bin/env bash
# Run 91: rows of at most 128 elements against torch (run91.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 240 python _scratch/run91.py 2>&1 | grep -v Warn | tee $OUT/run91.log
