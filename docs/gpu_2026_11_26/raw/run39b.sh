python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the model: this tree (after, each family alone too), HEAD 02d969d (before), then the routed calls timed inside one generate
echo "== after"; timeout 280 python3 benchmarks/model_bench.py --split 2>&1 | tee $OUT/model_after.log | tail -14
echo "== before"; (cd bench_variants/head && PYTHONPATH=$PWD:/tmp/site timeout 150 python3 benchmarks/model_bench.py 2>&1) | tee $OUT/model_before.log | tail -6
echo "== calls"; timeout 100 python3 _scratch/run37_calls.py 2>&1 | tee $OUT/calls.log | tail -10
echo "== host before"; (cd bench_variants/head && PYTHONPATH=$PWD:/tmp/site timeout 150 python3 benchmarks/host_time.py 2>&1) | tee $OUT/host_before.log | tail -11
echo "== attention checks"; timeout 150 python3 benchmarks/attention_bench.py 2>&1 | tee $OUT/attention_bench.log | head -30
