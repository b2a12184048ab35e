#!/bin/bash
# Run 140: the softmax family and add_rms_norm (h written by every peer) against torch, Liger-Kernel and torch.compile.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
python3 benchmarks/ops_bench.py --ops softmax,log_softmax,logsumexp,add_rms_norm --peers liger,compile --warm-procs 12 --budget-s 500 --out $OUT/soft > $OUT/soft.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/soft.log | head; grep -A9 "^Per op" $OUT/soft.log; grep -E "skipped|run took|points," $OUT/soft.log | cut -c1-600
python3 benchmarks/plot_ops.py $OUT/soft/results.json $OUT/soft.png > /dev/null 2>&1 || echo "plot failed"
echo "all: $(( $(date +%s) - start )) s"
