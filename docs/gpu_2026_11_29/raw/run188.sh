#!/bin/bash
# Run 188: the Python replay's inline keys, knob count and one-buffer workspaces: bits, then host time.
start=$(date +%s)
python3 _scratch/r188/replay_bits.py > $OUT/run188_bits.log 2>&1; tail -70 $OUT/run188_bits.log
echo "bits: $(( $(date +%s) - start )) s"
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/run188_host.json > $OUT/run188_host.log 2>&1; tail -16 $OUT/run188_host.log
echo "host: $(( $(date +%s) - start )) s"
python3 benchmarks/ops_bench.py --ops sum,mean,softmax --rows 1,32,256 --hidden 4096,8192 --out $OUT/ops > $OUT/run188_ops.log 2>&1; grep -E "host|points|took" $OUT/run188_ops.log | tail -5
echo "all: $(( $(date +%s) - start )) s"
