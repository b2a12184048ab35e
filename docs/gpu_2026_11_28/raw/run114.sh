#!/usr/bin/env bash
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-560} python3 _scratch/run114.py "$@" 2>&1 | grep -v Warn | tee $OUT/run114${TAG:-}.log
