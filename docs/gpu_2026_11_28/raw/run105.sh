#!/usr/bin/env bash
# Run 105: run105.py (the walks forced where the rule wants more columns).
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
timeout ${T:-200} python3 _scratch/run105.py "$@" 2>&1 | grep -v Warn | tee $OUT/run105.log
