#!/usr/bin/env bash
# Run 93: short rows held by the row kernel in TILE lanes (run93.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 560 python _scratch/run93.py layer_norm var_held 2>&1 | grep -v Warn | tee $OUT/run93b.log
