nvidia-smi --query-gpu=name --format=csv,noheader
B=docs/gpu_2026_12_02/raw/run238_bench.py
start=$(date +%s)
P=bf16:1:32000,bf16:8:32000,bf16:32:32000,bf16:64:32000,bf16:256:32000,f32:1:32000,f32:8:32000,f32:64:32000,f32:256:32000,f32:1024:32000,bf16:8:20000,bf16:8:24576,bf16:128:24576
for v in head head+r128; do for p in ${P//,/ }; do
  timeout 300 python3 -u $B warm argmax $v $p > $OUT/warm_argmax_${v/+/_}_${p//:/x}.log 2>&1 &
done; done
for v in head head+r128; do timeout 300 python3 -u $B warm argmin $v bf16:8:32000,f32:64:32000 > $OUT/warm_argmin_${v/+/_}.log 2>&1 & done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 560 - ($(date +%s) - start) )) python3 -u $B time argmax head,head+r128 $P 2>&1 | grep -v Warning
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time argmin head,head+r128 bf16:8:32000,f32:64:32000 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
