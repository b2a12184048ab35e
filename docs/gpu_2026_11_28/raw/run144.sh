#!/bin/bash
# Run 144 (prepared in stop 48): the shipped one-read modules (rows of 4096-16384 held since de2eaca) re-timed
# against torch and torch.compile, as run 141 timed them before.
start=$(date +%s)
python3 benchmarks/ops_bench.py --ops mean,sum,amax,amin --peers compile --warm-procs 14 --budget-s 450 --out $OUT/red > $OUT/red.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/red.log | head; grep -A8 "^Per op" $OUT/red.log; grep -E "skipped|run took|points," $OUT/red.log | cut -c1-400
echo "all: $(( $(date +%s) - start )) s"
