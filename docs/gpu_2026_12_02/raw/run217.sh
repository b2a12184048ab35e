python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site _scratch/r217/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
for op in fp8_quant fp8_quant_e5m2; do python3 -u benchmarks/gpu_empirical_check.py $op > $OUT/emp_$op.log 2>&1 & done
for op in layer_norm rms_norm softmax_held log_softmax_held; do for v in now mx168 mx128; do
  python3 -u _scratch/r217/bench.py warm $op $v > $OUT/warm_${op}_$v.log 2>&1 & done; done
wait
echo "warm + empirical: $(( $(date +%s) - start )) s"
cat $OUT/emp_*.log | grep -v Warning | cut -c1-600
grep -L "^warm" $OUT/warm_*.log | xargs -r tail -5
timeout $(( 560 - ($(date +%s) - start) )) python3 -u _scratch/r217/bench.py time layer_norm,rms_norm,softmax_held,log_softmax_held now,mx168,mx128 2>&1 | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
