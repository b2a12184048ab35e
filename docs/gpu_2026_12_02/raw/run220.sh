nvidia-smi --query-gpu=name --format=csv,noheader
B=_scratch/r220/bench.py
start=$(date +%s)
for op in fp8_quant logsumexp_held rms_norm_rstd var_held; do
  for p in 4096:24576 4096:22528; do timeout 330 python3 -u $B warm $op now $p > $OUT/warm_${op}_now_${p/:/x}.log 2>&1 & done
  timeout 330 python3 -u $B warm $op across80 4096:24576,4096:22528 > $OUT/warm_${op}_across80.log 2>&1 &
done
for op in rms_norm layer_norm; do for v in now across64; do
  timeout 330 python3 -u $B warm $op $v 4096:20000 > $OUT/warm_${op}_${v}.log 2>&1 & done; done
timeout 330 python3 -u _scratch/r220/host.py > $OUT/host_warm.log 2>&1 &
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout 100 python3 -u _scratch/r220/host.py 2>&1 | grep -v Warning
echo "host: $(( $(date +%s) - start )) s"
for op in fp8_quant logsumexp_held rms_norm_rstd var_held; do
  V=across80; [ -z "$(grep -L '^warm' $OUT/warm_${op}_now_*.log)" ] && V=now,across80
  timeout $(( 540 - ($(date +%s) - start) )) python3 -u $B time $op $V 4096:22528,4096:24576,16384:24576 2>&1 | grep -v Warning
done
for op in rms_norm layer_norm; do
  V=across64; grep -q "^warm" $OUT/warm_${op}_now.log && V=now,across64
  timeout $(( 580 - ($(date +%s) - start) )) python3 -u $B time $op $V 4096:20000,16384:20000 2>&1 | grep -v Warning
done
echo "all: $(( $(date +%s) - start )) s"
