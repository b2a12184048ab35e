#!/usr/bin/env bash
# Run 86: the cols kernels' TILE walk (see run86.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 540 python _scratch/run86.py 2>&1 | grep -v Warn | tee $OUT/run86.log | tail -150
