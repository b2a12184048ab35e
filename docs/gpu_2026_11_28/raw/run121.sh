#!/usr/bin/env bash
# Run 121: run121.py part A (DEPTH) on sum, nansum, amax, vector_norm, then part B (the launcher's rule) on sum.
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 380 python3 _scratch/run121.py A sum nansum amax vector_norm 2>&1 | grep -v Warn | tee $OUT/run121a.log
timeout 170 python3 _scratch/run121.py B sum 2>&1 | grep -v Warn | tee $OUT/run121b.log
