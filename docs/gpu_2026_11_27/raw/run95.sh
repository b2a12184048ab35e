#!/usr/bin/env bash
# Run 95: the cols kernels' column block at rows of at most 128 sized to the TILE (run95.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 570 python _scratch/run95.py 2>&1 | grep -v Warn | tee $OUT/run95.log
