nvidia-smi --query-gpu=name --format=csv,noheader
B=docs/gpu_2026_12_02/raw/run240_bench.py
start=$(date +%s)
V=head,head+u4,head+u4+b4,head+u4+w4
P=bf16:4096:32000,bf16:16384:8192,bf16:16384:16384,bf16:1024:151936,bf16:256:32000,bf16:8:32000
for v in ${V//,/ }; do for p in ${P//,/ }; do
  timeout 300 python3 -u $B warm argmax $v $p > $OUT/warm_${v//+/_}_${p//:/x}.log 2>&1 &
done; done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time argmax $V $P 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
