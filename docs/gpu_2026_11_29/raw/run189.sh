#!/bin/bash
# Run 189: the committed tree (d4b636d): ops_bench's host column with the ops in the other order, host_time, the model under the mode.
start=$(date +%s)
python3 benchmarks/ops_bench.py --ops mean,sum,softmax --rows 1,32,256 --hidden 4096,8192 --out $OUT/ops > $OUT/run189_ops.log 2>&1; grep -E "points|took" $OUT/run189_ops.log | tail -3
echo "ops: $(( $(date +%s) - start )) s"
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/run189_host.json > $OUT/run189_host.log 2>&1; tail -13 $OUT/run189_host.log
echo "host: $(( $(date +%s) - start )) s"
timeout 300 python3 benchmarks/model_bench.py > $OUT/run189_model.log 2>&1; tail -8 $OUT/run189_model.log
echo "all: $(( $(date +%s) - start )) s"
