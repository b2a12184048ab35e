python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
PTS=16x2048x2048,64x512x1024,256x256x4096,8x4096x512,16x1000x200,16x1000x1000
run() { op=$1; pts=$2; shift 2
  timeout 150 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-170; tail -4 $OUT/v_$op.log | cut -c1-200; }
# vector_norm: ord 2 as a * a (powp) against exp(2 log a); bits differ by design
run vector_norm $PTS,4096x4096,4096x1000 --variant h=bench_variants/vector_norm_h.py --variant final=generated/cuda/vector_norm.py
# amin at 32 columns with ALIGN (stop 27 took the block untimed)
run amin $PTS --variant b0=bench_variants/amin_b0.py --variant h=bench_variants/amin_h.py --variant final=generated/cuda/amin.py
timeout 150 python3 benchmarks/gpu_empirical_check.py vector_norm amin softmax 2>&1 | tee $OUT/empirical.log | tail -5
timeout 100 python3 benchmarks/host_time.py 2>&1 | tee $OUT/host.log | tail -14
