#!/usr/bin/env bash
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
timeout ${T:-200} python3 _scratch/run113.py 2>&1 | grep -v Warn | tee $OUT/run113.log
