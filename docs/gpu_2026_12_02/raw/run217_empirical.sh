python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site _scratch/r217/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
for op in fp8_quant fp8_quant_e5m2; do timeout 520 python3 -u benchmarks/gpu_empirical_check.py $op > $OUT/emp_$op.log 2>&1 & done
wait
echo "empirical: $(( $(date +%s) - start )) s"
cat $OUT/emp_*.log | grep -v Warning | cut -c1-1500
