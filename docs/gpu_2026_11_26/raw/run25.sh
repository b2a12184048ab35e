python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the final modules (ALIGN; the split tree only for one reduction of one state) against stop 27's (h) and stop 26's (b0)
PTS=16x2048x2048,64x512x1024,256x256x4096,8x4096x512,16x1000x200,16x1000x1000
run() { op=$1; pts=$2; shift 2
  timeout 150 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-170; tail -3 $OUT/v_$op.log | cut -c1-200; }
for op in softmax_held log_softmax_held var; do run $op $PTS --variant b0=bench_variants/${op}_b0.py --variant h=bench_variants/${op}_h.py --variant final=generated/cuda/$op.py; done
run softmax 4x16384x512,2x32000x256 --variant b0=bench_variants/softmax_b0.py --variant h=bench_variants/softmax_h.py --variant final=generated/cuda/softmax.py
timeout 200 python3 benchmarks/gpu_empirical_check.py mean sum softmax_held var 2>&1 | tee $OUT/empirical.log | tail -15
