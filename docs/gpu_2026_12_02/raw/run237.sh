nvidia-smi --query-gpu=name --format=csv,noheader
B=docs/gpu_2026_12_02/raw/run233_bench.py
start=$(date +%s)
P=bf16:4096:32000,bf16:1024:32000,bf16:256:32000,bf16:64:32000,bf16:8:32000,bf16:1024:151936,bf16:1:151936,bf16:16384:8192,f32:4096:32000,f32:256:32000,bf16:4096:20000,bf16:1024:50000
for op in argmax argmin; do for v in head tl; do for p in ${P//,/ }; do
  timeout 300 python3 -u $B warm $op $v $p > $OUT/warm_${op}_${v}_${p//:/x}.log 2>&1 &
done; done; done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 560 - ($(date +%s) - start) )) python3 -u $B time argmax head,tl,head,tl $P 2>&1 | grep -v Warning
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time argmin head,tl bf16:4096:32000,bf16:1024:151936,bf16:256:32000 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
