nvidia-smi --query-gpu=name --format=csv,noheader
B=docs/gpu_2026_12_02/raw/run236_bench.py
start=$(date +%s)
P=bf16:4096:9000,bf16:4096:22528,bf16:4096:26000
for op in logsumexp_held var_held fp8_quant softmax_held; do
  for v in now w8; do for p in ${P//,/ }; do
    timeout 400 python3 -u $B warm $op $v $p > $OUT/warm_${op}_${v}_${p//:/x}.log 2>&1 &
  done; done
done
for v in now w8; do timeout 400 python3 -u $B warm layer_norm $v bf16:4096:20000 > $OUT/warm_layer_norm_${v}.log 2>&1 & done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
for op in logsumexp_held var_held fp8_quant softmax_held; do
  timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time $op now,w8 $P,bf16:16384:22528,bf16:1024:22528 2>&1 | grep -v Warning
done
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time layer_norm now,w8 bf16:4096:20000,bf16:16384:20000 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
