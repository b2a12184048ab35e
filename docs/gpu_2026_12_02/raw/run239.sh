nvidia-smi --query-gpu=name --format=csv,noheader
B=docs/gpu_2026_12_02/raw/run239_bench.py
start=$(date +%s)
V=head,ps+s1+g1,ps+s2+g1,ps+s3+g1,ps+s2+g2
W=bf16:1024:32000,bf16:256:32000,bf16:1024:16384,bf16:1024:8192,f32:1024:32000,bf16:1024:12000
for v in ${V//,/ }; do
  for p in ${W//,/ }; do
    timeout 300 python3 -u $B warm softmax_held $v $p > $OUT/warm_softmax_held_${v//+/_}_${p//:/x}.log 2>&1 &
  done
  for p in bf16:1024:32000 bf16:1024:16384; do
    timeout 300 python3 -u $B warm log_softmax_held $v $p > $OUT/warm_log_softmax_held_${v//+/_}_${p//:/x}.log 2>&1 &
  done
done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -h "^ERR" $OUT/warm_*.log | head -20
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
P=bf16:4096:32000,bf16:16384:32000,bf16:1024:32000,bf16:256:32000,bf16:4096:16384,bf16:4096:8192,f32:4096:32000,bf16:4096:12000
timeout $(( 480 - ($(date +%s) - start) )) python3 -u $B time softmax_held $V $P 2>&1 | grep -v Warning
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time log_softmax_held $V bf16:4096:32000,bf16:16384:32000,bf16:1024:32000,bf16:4096:16384 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
