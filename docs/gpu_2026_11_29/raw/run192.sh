#!/bin/bash
# Run 192: the dense attention path's Python trimmed (shapes read once, the moving integers' specs in one call, the stream and hooks once a call): bits, then host time.
start=$(date +%s)
python3 docs/gpu_2026_11_29/raw/run188_bits.py > $OUT/run192_bits.log 2>&1; grep -E "attention|failures" $OUT/run192_bits.log
echo "bits: $(( $(date +%s) - start )) s"
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/run192_host.json > $OUT/run192_host.log 2>&1; tail -13 $OUT/run192_host.log
echo "all: $(( $(date +%s) - start )) s"
