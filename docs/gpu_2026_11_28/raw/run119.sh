#!/usr/bin/env bash
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${T:-400} python3 _scratch/run119.py "$@" 2>&1 | grep -v Warn | tee $OUT/run119${TAG:-}.log
