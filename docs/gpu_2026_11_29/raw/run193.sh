#!/bin/bash
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv
python3 docs/gpu_2026_11_29/raw/run193b.py > $OUT/run193b.log 2>&1; cat $OUT/run193b.log
echo "tree: $(( $(date +%s) - start )) s"
python3 docs/gpu_2026_11_29/raw/run193.py > $OUT/run193.log 2>&1; cat $OUT/run193.log
echo "all: $(( $(date +%s) - start )) s"
