set -u
export PYTHONPATH=$PWD
B=_scratch/run232/bench.py
nvidia-smi --query-gpu=name --format=csv,noheader
t0=$(date +%s)
for op in argmax argmin; do for v in head built; do python $B warm $op $v > /dev/null 2>&1 & done; done
python benchmarks/gpu_empirical_check.py argmax argmin 2>&1 | tee $OUT/empirical.log
wait; echo "empirical + warm $(( $(date +%s) - t0 )) s"
python $B time argmax head,built 2>&1 | tee $OUT/bench_argmax.log
python $B time argmin head,built bf16:16384:8192,bf16:4096:32000,bf16:1024:151936,bf16:8:32000,f32:4096:32000,f32:8:32000 2>&1 | tee $OUT/bench_argmin.log
echo "bench $(( $(date +%s) - t0 )) s"
python3 benchmarks/ops_bench.py --ops argmax,argmin --warm-procs 14 --budget-s 240 --out $OUT/ops > $OUT/ops.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/ops.log | head; grep -A4 "^Per op" $OUT/ops.log; grep -E "skipped|run took|points," $OUT/ops.log | cut -c1-400
echo "all $(( $(date +%s) - t0 )) s"
