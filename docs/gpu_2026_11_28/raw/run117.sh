#!/usr/bin/env bash
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-560} python3 _scratch/run117.py "$@" 2>&1 | grep -v Warn | tee $OUT/run117${TAG:-}.log
