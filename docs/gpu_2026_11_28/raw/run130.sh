#!/usr/bin/env bash
# Run 130: run130.py (a probe: knobs forced, nothing built).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-330} python3 _scratch/run130.py "$@" 2>&1 | grep -v Warn | tee $OUT/run130.log
