#!/bin/bash
# Run 249b: the reductions over rows against torch and torch.compile; host time per call; the model (tree of 3db42d0), as runs 224b-c.
export PYTHONPATH=$PWD
start=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
python3 benchmarks/ops_bench.py --ops mean,sum,amax,amin,argmax,argmin,var,std --peers compile --warm-procs 14 --budget-s 340 --out $OUT/red > $OUT/red.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/red.log | head; grep -A12 "^Per op" $OUT/red.log; grep -E "skipped|run took|points," $OUT/red.log | cut -c1-600
python3 benchmarks/plot_ops.py $OUT/red/results.json $OUT/red.png > /dev/null 2>&1 || echo "plot failed"
echo "red: $(( $(date +%s) - start )) s"
timeout 150 python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -14 $OUT/host.log
echo "host: $(( $(date +%s) - start )) s"
timeout 90 python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -6 $OUT/model.log
echo "all: $(( $(date +%s) - start )) s"
