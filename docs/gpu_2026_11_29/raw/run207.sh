#!/bin/bash
# Run 207: host time per call of the tree as built (argmax's rows of 8192 now held: one launch).
start=$(date +%s)
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/run207_host.json > $OUT/run207_host.log 2>&1; tail -14 $OUT/run207_host.log
echo "all: $(( $(date +%s) - start )) s"
