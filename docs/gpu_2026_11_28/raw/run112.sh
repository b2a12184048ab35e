#!/usr/bin/env bash
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
timeout ${T:-300} python3 _scratch/run112.py "$@" 2>&1 | grep -v Warn | tee $OUT/run112.log
