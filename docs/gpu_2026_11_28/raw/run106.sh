#!/usr/bin/env bash
# Run 106: run106.py vn2, then run106.py edge sum argmax vn2.
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 _scratch/run106.py vn2 2>&1 | grep -v Warn | tee $OUT/run106_vn2.log
timeout ${T:-330} python3 _scratch/run106.py edge sum argmax vn2 2>&1 | grep -v Warn | tee $OUT/run106_edge.log
