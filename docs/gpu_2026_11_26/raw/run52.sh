python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo "== host"; timeout 240 python3 benchmarks/host_time.py 2>&1 | tee $OUT/host.log | tail -12
echo "== model"; timeout 200 python3 benchmarks/model_bench.py --reps 3 2>&1 | tee $OUT/model.log | tail -8
echo "== llama invariance"; timeout 200 python3 examples/llama_invariance.py 2>&1 | tee $OUT/llama.log | tail -8
