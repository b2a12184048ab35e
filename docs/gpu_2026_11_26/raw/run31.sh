python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# var and std as shipped (Welford above 8192, var_held/std_held below: final) against HEAD's two passes (p)
COLS=16x2048x2048,64x512x1024,256x256x4096,8x4096x512,16x1000x200,16x1000x1000,4x16384x512,2x32768x256,1x65536x64
ROWS=4096x4096,16384x8192,1x4096,256x8192,4096x1000,4096x32000,8x32000,1x151936,1024x16384
run() { op=$1; pts=$2; tag=$3; shift 3
  timeout 200 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_${op}_$tag.log 2>&1
  echo "== $op $tag"; grep -o '"dtype.*' $OUT/v_${op}_$tag.log | sed 's/"equal_each_other": //' | cut -c1-170; tail -3 $OUT/v_${op}_$tag.log | cut -c1-200; }
for op in var std; do
  run $op $COLS cols --variant p=bench_variants/${op}_p.py --variant final=generated/cuda/${op}.py
  run $op $ROWS rows --variant p=bench_variants/${op}_p.py --variant final=generated/cuda/${op}.py
done
timeout 240 python3 benchmarks/gpu_empirical_check.py var std var_held std_held 2>&1 | tee $OUT/empirical.log | tail -12
