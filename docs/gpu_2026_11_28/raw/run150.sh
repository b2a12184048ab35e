#!/bin/bash
# Run 150: the shipped logsumexp (rows of at most 16384 in logsumexp_held), var and std (rows of at most
# 32768 in var_held / std_held) against torch and torch.compile, as run 140 / 141 timed them before.
start=$(date +%s)
python3 benchmarks/ops_bench.py --ops logsumexp,var,std --peers compile --warm-procs 14 --budget-s 380 --out $OUT/red > $OUT/red.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/red.log | head; grep -A8 "^Per op" $OUT/red.log; grep -E "skipped|run took|points," $OUT/red.log | cut -c1-400
echo "all: $(( $(date +%s) - start )) s"
