nvidia-smi --query-gpu=name --format=csv,noheader
B=_scratch/r223/bench.py
start=$(date +%s)
for v in now pack8 ahead2; do
  timeout 100 python3 -u $B warm layer_norm $v 4096:24576 > $OUT/warm_layer_norm_$v.log 2>&1 & done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
V=now; for v in pack8 ahead2; do grep -q "^warm" $OUT/warm_layer_norm_$v.log && V=$V,$v; done
timeout $(( 160 - ($(date +%s) - start) )) python3 -u $B time layer_norm $V 4096:24576,16384:24576 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
