#!/usr/bin/env bash
# Run 127: run127.py on the working tree's modules (a probe: knobs forced, nothing built).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-400} python3 _scratch/run127.py "$@" 2>&1 | grep -v Warn | tee $OUT/run127.log
