nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
for op in log_softmax_held softmax_held layer_norm; do for v in now across; do
  timeout 200 python3 -u _scratch/r218/bench.py warm $op $v > $OUT/warm_${op}_$v.log 2>&1 & done; done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 330 - ($(date +%s) - start) )) python3 -u _scratch/r218/bench.py time log_softmax_held,softmax_held,layer_norm now,across 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
