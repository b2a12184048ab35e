python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# rows at the shapes (N a multiple of 16: ALIGN 16, K and N already known to Triton): stop 27 (h) against the final modules
run() { op=$1; pts=$2; shift 2
  timeout 120 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-150; tail -3 $OUT/v_$op.log | cut -c1-200; }
for op in rms_norm layer_norm; do run $op 4096x4096,16384x8192,1x4096,256x8192 --variant h=bench_variants/${op}_h.py --variant final=generated/cuda/$op.py; done
run softmax_held 4096x4096,16384x8192,1x4096,256x8192 --variant h=bench_variants/softmax_held_h.py --variant final=generated/cuda/softmax_held.py
run softmax 4096x32000,8x32000,1x151936 --variant h=bench_variants/softmax_h.py --variant final=generated/cuda/softmax.py
