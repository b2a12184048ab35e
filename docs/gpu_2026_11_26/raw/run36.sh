python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# layer_norm: Welford's one read above 8192 (final) against the two passes (f1, HEAD 6e6874c)
timeout 300 python3 benchmarks/variant_bench.py --op layer_norm --no-torch-bits --points 1x16384,8x16384,128x16384,256x16384,512x16384,1024x16384,4096x16384,128x32768,512x32768,2048x32768,4096x4096 --variant f1=bench_variants/layer_norm_f1.py --variant final=generated/cuda/layer_norm.py > $OUT/v_layer_norm.log 2>&1
grep -o '"dtype.*' $OUT/v_layer_norm.log | sed 's/"equal_each_other": //' | cut -c1-150; tail -3 $OUT/v_layer_norm.log
timeout 200 python3 benchmarks/gpu_empirical_check.py layer_norm layer_norm_held 2>&1 | tee $OUT/empirical.log | tail -4
