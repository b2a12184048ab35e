#!/usr/bin/env bash
# Run 92: rows of at most 128 elements walked in TILE lanes (run92.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 330 python _scratch/run92.py 2>&1 | grep -v Warn | tee $OUT/run92.log
