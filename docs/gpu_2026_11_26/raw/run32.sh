python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the split path with one launch a stage (final) against HEAD 265bf5c (f0): GPU time, then host time
run() { op=$1; pts=$2; shift 2
  timeout 150 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-150; tail -3 $OUT/v_$op.log | cut -c1-200; }
ROWS=1x32000,8x32000,64x32000,1x151936,4x65536,256x32000,4096x32000
for op in softmax log_softmax; do run $op $ROWS --variant f0=bench_variants/${op}_f0.py --variant final=generated/cuda/$op.py; done
run layer_norm 1x16384,8x16384,4x32768,4096x4096 --variant f0=bench_variants/layer_norm_f0.py --variant final=generated/cuda/layer_norm.py
run softmax_held 1x4096x32,2x8192x16,1x8192x4,4096x4096 --variant f0=bench_variants/softmax_held_f0.py --variant final=generated/cuda/softmax_held.py
run var_held 1x8192x16,4x4096x32,1x8192 --variant f0=bench_variants/var_held_f0.py --variant final=generated/cuda/var_held.py
timeout 120 python3 _scratch/host_cmp.py 2>&1 | tee $OUT/host_cmp.log
timeout 300 python3 benchmarks/gpu_empirical_check.py softmax log_softmax softmax_held layer_norm var_held argmax 2>&1 | tee $OUT/empirical.log | tail -8
