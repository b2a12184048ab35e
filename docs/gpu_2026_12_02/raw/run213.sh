#!/bin/bash
# Run 213: the 8 modules with the L2 prefetch as built vs d6c22c0's; their GPU empirical check; the
# held rows of 20000-24576 across; argmax's rows of 32000 held on short grids.
python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site _scratch/r213/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
start=$(date +%s)
OPS="softmax_held log_softmax_held layer_norm rms_norm rms_norm_rstd add_rms_norm fp8_quant fp8_quant_e5m2"
for op in $OPS; do
  python3 -u benchmarks/gpu_empirical_check.py $op > $OUT/emp_$op.log 2>&1 &
done
for op in $OPS argmax; do
  python3 -u _scratch/r213/bench.py warm $op > $OUT/warm_$op.log 2>&1 &
done
wait
echo "warm + empirical: $(( $(date +%s) - start )) s"
cat $OUT/emp_*.log | grep -v Warning | cut -c1-400
grep -h "BITS\|mismatches\|Error\|error" $OUT/warm_*.log | sort | uniq -c
timeout $(( 585 - ($(date +%s) - start) )) python3 -u _scratch/r213/bench.py time softmax_held,log_softmax_held,layer_norm,rms_norm,add_rms_norm,argmax,fp8_quant,rms_norm_rstd,fp8_quant_e5m2 2>&1 | tee $OUT/time.log | grep -v Warning
echo "all: $(( $(date +%s) - start )) s"
