python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the cols kernel's column block and warps at short rows (N <= 512) against the shipped 32 columns, 4 warps
PTS=256x256x4096,64x512x1024,256x100x1000,1024x128x1024,4096x64x512,16x2048x2048,8x4096x512
timeout 300 python3 benchmarks/variant_bench.py --op mean --no-torch-bits --points $PTS --variant c32w4=generated/cuda/mean.py --variant c64w4=bench_variants/mean_c64w4.py --variant c64w8=bench_variants/mean_c64w8.py --variant c32w8=bench_variants/mean_c32w8.py --variant c128w8=bench_variants/mean_c128w8.py > $OUT/v_mean_blocks.log 2>&1
grep -o '"dtype.*' $OUT/v_mean_blocks.log | sed 's/"equal_each_other": //' | cut -c1-220; tail -7 $OUT/v_mean_blocks.log | cut -c1-200
