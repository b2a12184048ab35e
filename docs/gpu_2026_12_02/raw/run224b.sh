#!/bin/bash
# Run 224b: the reductions over rows against torch and torch.compile (tree of 7e8b2ca).
export PYTHONPATH=$PWD
start=$(date +%s)
python3 benchmarks/ops_bench.py --ops mean,sum,amax,amin,argmax,argmin,var,std --peers compile --warm-procs 14 --budget-s 540 --out $OUT/red > $OUT/red.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/red.log | head; grep -A12 "^Per op" $OUT/red.log; grep -E "skipped|run took|points," $OUT/red.log | cut -c1-600
python3 benchmarks/plot_ops.py $OUT/red/results.json $OUT/red.png > /dev/null 2>&1 || echo "plot failed"
echo "all: $(( $(date +%s) - start )) s"
