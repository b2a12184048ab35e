python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo "== build"; /usr/bin/time -f "%e s" python3 -c "from redgen.runtime import fast_route; print(fast_route.status())" 2>&1 | tail -3
echo "== host"; timeout 240 python3 benchmarks/host_time.py --json $OUT/host.json 2>&1 | tee $OUT/host.log | tail -14
echo "== ab"; timeout 200 python3 _scratch/run49_ab.py 2>&1 | tee $OUT/ab.log
echo "== model"; timeout 330 python3 benchmarks/model_bench.py --python-route --reps 5 2>&1 | tee $OUT/model.log | tail -12
echo "== llama invariance"; timeout 200 python3 examples/llama_invariance.py 2>&1 | tee $OUT/llama.log | tail -8
echo "== attention checks"; timeout 120 python3 benchmarks/attention_bench.py 2>&1 | grep -v Warn | grep "^ours" | tee $OUT/attention_bench.log
