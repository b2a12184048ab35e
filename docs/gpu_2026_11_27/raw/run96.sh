#!/usr/bin/env bash
# Run 96: the cols kernels' output sweep in TILE lanes at short rows (run96.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 560 python _scratch/run96.py 2>&1 | grep -v Warn | tee $OUT/run96.log
