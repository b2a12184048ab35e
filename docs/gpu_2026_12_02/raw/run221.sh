#!/bin/bash
# Run 221: host time per call of the tree as built (a dense decode's direct launches; its unreturned
# logsumexp in the partials' allocation), every case of benchmarks/host_time.py.
nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
PYTHONPATH=. timeout 500 python3 benchmarks/host_time.py --json $OUT/run221_host.json > $OUT/run221_host.log 2>&1; tail -16 $OUT/run221_host.log
echo "all: $(( $(date +%s) - start )) s"
