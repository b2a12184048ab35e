#!/usr/bin/env bash
# Run 104: run104.py (the final launcher rule; the kernels are run 103's, byte-identical).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-400} python3 _scratch/run104.py "$@" 2>&1 | grep -v Warn | tee $OUT/run104.log
