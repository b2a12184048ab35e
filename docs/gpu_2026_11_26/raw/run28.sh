python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the 64-column block at rows of at most 512 (final) against 32 columns (f4: commit f47092d)
PTS=256x256x4096,64x512x1024,256x100x1000,1024x128x1024,4096x64x512,8x4096x512
for op in sum amax amin nansum; do
  timeout 110 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $PTS --variant f4=bench_variants/${op}_f4.py --variant final=generated/cuda/$op.py > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-150; tail -3 $OUT/v_$op.log | cut -c1-200
done
timeout 120 python3 benchmarks/gpu_empirical_check.py sum amax mean 2>&1 | tee $OUT/empirical.log | tail -4
