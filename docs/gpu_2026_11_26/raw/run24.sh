python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the cols kernels' tree form at 32-column blocks: tl.split's (now) against two-element reduces (pairs), ALIGN in both
PTS=16x2048x2048,64x512x1024,256x256x4096,8x4096x512,16x1000x200,16x1000x1000
run() { op=$1; pts=$2; shift 2
  timeout 120 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-150; tail -3 $OUT/v_$op.log | cut -c1-200; }
for op in softmax_held log_softmax_held logsumexp sum var std vector_norm nansum; do run $op $PTS --variant now=generated/cuda/$op.py --variant pairs=bench_variants/${op}_pairs.py; done
run softmax 4x16384x512,2x32000x256 --variant now=generated/cuda/softmax.py --variant pairs=bench_variants/softmax_pairs.py
