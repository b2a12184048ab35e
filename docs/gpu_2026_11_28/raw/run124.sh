#!/usr/bin/env bash
# Run 124: run124.py part A on sum and amax (a probe: wider column blocks at rows of 257-512).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 420 python3 _scratch/run124.py A sum amax 2>&1 | grep -v Warn | tee $OUT/run124.log
