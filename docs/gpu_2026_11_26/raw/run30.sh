python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# var and std: two passes (p, HEAD) against Welford's one read (w)
COLS=16x2048x2048,64x512x1024,256x256x4096,8x4096x512,16x1000x200,16x1000x1000
ROWS=4096x4096,16384x8192,1x4096,256x8192,4096x1000,4096x32000,8x32000,1x151936
run() { op=$1; pts=$2; tag=$3; shift 3
  timeout 200 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_${op}_$tag.log 2>&1
  echo "== $op $tag"; grep -o '"dtype.*' $OUT/v_${op}_$tag.log | sed 's/"equal_each_other": //' | cut -c1-170; tail -3 $OUT/v_${op}_$tag.log | cut -c1-200; }
for op in var std; do
  run $op $COLS cols --variant p=bench_variants/${op}_p.py --variant w=bench_variants/${op}_w.py
  run $op $ROWS rows --variant p=bench_variants/${op}_p.py --variant w=bench_variants/${op}_w.py
done
timeout 200 python3 benchmarks/gpu_empirical_check.py var std 2>&1 | tee $OUT/empirical.log | tail -12
