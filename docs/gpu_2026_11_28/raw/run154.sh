#!/bin/bash
# Run 154 (stop 50): the shipped argmax / argmin (grouped rows walks, 2 commits of stop 50) against torch and
# torch.compile at ops_bench's points, rows of 4096-151936.
start=$(date +%s)
python3 benchmarks/ops_bench.py --ops argmax,argmin --peers compile --warm-procs 14 --budget-s 420 \
  --hidden 4096,8192,16384,32000,151936 --out $OUT/arg > $OUT/arg.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/arg.log | head; grep -A8 "^Per op" $OUT/arg.log; grep -E "skipped|run took|points," $OUT/arg.log | cut -c1-400
echo "all: $(( $(date +%s) - start )) s"
