#!/bin/bash
# Run 182: var's cols walks (run182.py), then the reductions over rows against torch and torch.compile.
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee $OUT/device.txt
python3 _scratch/r182/run182.py > $OUT/run182.log 2>&1; cat $OUT/run182.log | cut -c1-400
echo "exp: $(( $(date +%s) - start )) s"
budget=$(( 560 - ($(date +%s) - start) ))
python3 benchmarks/ops_bench.py --ops mean,sum,amax,amin,argmax,argmin,var,std --peers compile --warm-procs 14 --budget-s $budget --out $OUT/red > $OUT/red.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/red.log | head; grep -A12 "^Per op" $OUT/red.log; grep -E "skipped|run took|points," $OUT/red.log | cut -c1-600
python3 benchmarks/plot_ops.py $OUT/red/results.json $OUT/red.png > /dev/null 2>&1 || echo "plot failed"
echo "all: $(( $(date +%s) - start )) s"
