python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# ALIGN: K or N a multiple of 8 (or 4) but not of 16; 16x2048x2048 a control (ALIGN 16: unchanged)
PTS=16x1000x1000,8x4000x1000,64x1000x200,256x100x1000,16x2048x2048,4096x1000,1024x4000
run() { op=$1; pts=$2; shift 2
  timeout 100 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-150; tail -3 $OUT/v_$op.log | cut -c1-200; }
for op in mean amax argmax; do run $op $PTS --variant prev=bench_variants/${op}_h.py --variant now=generated/cuda/$op.py; done
run softmax_held 4096x1000,1024x4000,16x1000x200,64x1000x200 --variant prev=bench_variants/softmax_held_h.py --variant now=generated/cuda/softmax_held.py
run rms_norm 4096x1000,16384x1000,1024x4000 --variant prev=bench_variants/rms_norm_h.py --variant now=generated/cuda/rms_norm.py
