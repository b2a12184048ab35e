python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# SPLIT_BELOW for specs that read their rows again, now that their split path has one launch a stage:
# 50 (shipped) against 0 (always fused), 100, 200, 400
run() { op=$1; pts=$2; shift 2
  timeout 280 python3 benchmarks/variant_bench.py --op $op --no-torch-bits --points $pts "$@" > $OUT/v_$op.log 2>&1
  echo "== $op"; grep -o '"dtype.*' $OUT/v_$op.log | sed 's/"equal_each_other": //' | cut -c1-200; tail -6 $OUT/v_$op.log | cut -c1-200; }
PTS=128x32000,256x32000,384x32000,512x32000,1024x32000,256x65536,512x16384,1024x16384,2048x16384
for op in softmax log_softmax; do
  run $op $PTS --variant sb50=generated/cuda/$op.py --variant sb0=bench_variants/${op}_sb0.py --variant sb100=bench_variants/${op}_sb100.py --variant sb200=bench_variants/${op}_sb200.py --variant sb400=bench_variants/${op}_sb400.py
done
run layer_norm 128x16384,256x16384,512x16384,1024x16384,128x32768,512x32768 --variant sb50=generated/cuda/layer_norm.py --variant sb0=bench_variants/layer_norm_sb0.py --variant sb100=bench_variants/layer_norm_sb100.py --variant sb200=bench_variants/layer_norm_sb200.py --variant sb400=bench_variants/layer_norm_sb400.py
