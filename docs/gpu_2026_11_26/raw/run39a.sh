python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# host time and bits: this tree (after), then HEAD 02d969d (before), same machine
echo "== after"; timeout 240 python3 benchmarks/host_time.py 2>&1 | tee $OUT/host_after.log | tail -12
echo "== before"; (cd bench_variants/head && PYTHONPATH=$PWD:/tmp/site timeout 200 python3 benchmarks/host_time.py 2>&1) | tee $OUT/host_before.log | tail -11
timeout 100 python3 _scratch/run38_micro.py 2>&1 | tee $OUT/micro.log | tail -25
timeout 200 python3 benchmarks/gpu_empirical_check.py attention matmul mean argmax rms_norm softmax 2>&1 | tee $OUT/empirical.log | tail -8
