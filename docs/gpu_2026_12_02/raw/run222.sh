#!/bin/bash
# Run 222: host time per call of the tree as built, after the dense decode's split and fused direct
# launches became one call; every case of benchmarks/host_time.py.
nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
PYTHONPATH=. timeout 500 python3 benchmarks/host_time.py --json $OUT/run222_host.json > $OUT/run222_host.log 2>&1; tail -16 $OUT/run222_host.log
echo "all: $(( $(date +%s) - start )) s"
