nvidia-smi --query-gpu=name --format=csv,noheader
B=_scratch/run244/bench.py
start=$(date +%s)
P=bf16:16384:8192,bf16:16384:16384,bf16:4096:32000,bf16:1024:151936,bf16:256:32000,bf16:8:32000,f16:4096:32000,f16:16384:8192,f32:4096:32000
for v in head pk; do for p in ${P//,/ }; do
  timeout 300 python3 -u $B warm argmax $v $p > $OUT/warm_argmax_${v}_${p//:/x}.log 2>&1 &
done; done
for v in head pk; do timeout 300 python3 -u $B warm argmin $v bf16:16384:8192,bf16:4096:32000 > $OUT/warm_argmin_${v}.log 2>&1 & done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 540 - ($(date +%s) - start) )) python3 -u $B time argmax head,pk $P 2>&1 | grep -v Warning
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time argmin head,pk bf16:16384:8192,bf16:4096:32000 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
