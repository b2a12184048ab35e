#!/usr/bin/env bash
# Run 122: run122.py part A (the DEPTH stack's leaves and runs) on sum, nansum, amax, vector_norm.
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 560 python3 _scratch/run122.py A sum vector_norm nansum amax 2>&1 | grep -v Warn | tee $OUT/run122.log
