#!/bin/bash
# Run 243: a directly imported module binds the C++ replay itself at its first recorded call.
start=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -14 $OUT/host.log
echo "host: $(( $(date +%s) - start )) s"
timeout 300 python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -8 $OUT/model.log
echo "all: $(( $(date +%s) - start )) s"
