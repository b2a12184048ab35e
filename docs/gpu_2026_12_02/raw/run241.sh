nvidia-smi --query-gpu=name --format=csv,noheader
B=docs/gpu_2026_12_02/raw/run238_bench.py
start=$(date +%s)
P=bf16:1:32000,bf16:8:32000,bf16:64:32000,bf16:256:32000,bf16:1024:32000,bf16:4096:32000,bf16:16384:32000,bf16:4096:20000,bf16:1024:50000,bf16:16384:8192,bf16:16384:16384,bf16:1024:151936,f32:8:32000,f32:1024:32000,f32:4096:32000
G1=bf16:1:32000,bf16:8:32000,bf16:64:32000,bf16:256:32000,bf16:1024:32000
G2=bf16:4096:32000,bf16:16384:32000,bf16:4096:20000,bf16:1024:50000,bf16:16384:8192
G3=bf16:16384:16384,bf16:1024:151936,f32:8:32000,f32:1024:32000,f32:4096:32000
for op in argmax argmin; do for v in head new; do for g in 1 2 3; do
  eval p=\$G$g
  timeout 300 python3 -u $B warm $op $v $p > $OUT/warm_${op}_${v}_$g.log 2>&1 &
done; done; done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 480 - ($(date +%s) - start) )) python3 -u $B time argmax head,new,head,new $P 2>&1 | grep -v Warning
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time argmin head,new bf16:8:32000,bf16:256:32000,bf16:4096:32000,bf16:16384:8192,bf16:1024:151936,f32:1024:32000 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
