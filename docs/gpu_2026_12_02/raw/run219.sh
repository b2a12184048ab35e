nvidia-smi --query-gpu=name --format=csv,noheader
B=_scratch/r219/bench.py
start=$(date +%s)
for p in 4096:22528 4096:24576 4096:26000; do
  timeout 330 python3 -u $B warm layer_norm now $p > $OUT/warm_ln_now_${p/:/x}.log 2>&1 &
done
timeout 330 python3 -u $B warm layer_norm across80 > $OUT/warm_ln_across80.log 2>&1 &
for v in now across80; do timeout 330 python3 -u $B warm rms_norm $v > $OUT/warm_rms_$v.log 2>&1 & done
timeout 330 python3 -u $B warm log_softmax_held now > $OUT/warm_lsh_now.log 2>&1 &
timeout 330 python3 -u _scratch/r219/host.py > $OUT/host_warm.log 2>&1 &
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout 120 python3 -u _scratch/r219/host.py 2>&1 | grep -v Warning
echo "host: $(( $(date +%s) - start )) s"
LNV=across80; grep -q "^warm" $OUT/warm_ln_now_4096x24576.log && LNV=now,across80
timeout $(( 560 - ($(date +%s) - start) )) python3 -u $B time rms_norm,log_softmax_held now,across80 2>&1 | grep -v Warning
timeout $(( 580 - ($(date +%s) - start) )) python3 -u $B time layer_norm $LNV 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
