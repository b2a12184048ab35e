#!/bin/bash
# Run 224c: host time per call, the model under the mode, and run 223's tunes as built (tree of 7e8b2ca).
start=$(date +%s)
B=_scratch/r224/bench.py
for op in layer_norm log_softmax_held; do timeout 150 python3 -u $B warm $op now 4096:24576,16384:24576 > $OUT/warm_$op.log 2>&1 & done
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -13 $OUT/host.log
echo "host: $(( $(date +%s) - start )) s"
wait
timeout 60 python3 -u $B time layer_norm,log_softmax_held now 4096:24576,16384:24576 2>&1 | grep -E "^\||device"
echo "tunes: $(( $(date +%s) - start )) s"
timeout 300 python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -8 $OUT/model.log
echo "all: $(( $(date +%s) - start )) s"
