nvidia-smi --query-gpu=name --format=csv,noheader
cp generated/cuda/argmax.py _scratch/run242/argmax_new.py; cp generated/cuda/argmin.py _scratch/run242/argmin_new.py
pip install -q --no-index --no-deps --target /tmp/site _scratch/run242/whl/*.whl
B=docs/gpu_2026_12_02/raw/run238_bench.py
start=$(date +%s)
P=bf16:8:32000,bf16:256:32000,bf16:4096:32000,bf16:4096:20000,bf16:1024:50000,bf16:16384:8192,f32:1024:32000
for op in argmax argmin; do for v in head new; do
  timeout 300 python3 -u $B warm $op $v $P > $OUT/warm_${op}_${v}.log 2>&1 &
done; done
PYTHONPATH=/tmp/site:$PWD timeout 400 python3 -u docs/gpu_2026_12_02/raw/run234_check.py argmax argmin > $OUT/empirical.log 2>&1 &
wait
echo "warm + empirical: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
grep -v Warning $OUT/empirical.log | tail -5
timeout $(( 560 - ($(date +%s) - start) )) python3 -u $B time argmax head,new $P 2>&1 | grep -v Warning
timeout $(( 590 - ($(date +%s) - start) )) python3 -u $B time argmin head,new bf16:8:32000,bf16:4096:32000,bf16:1024:50000 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
