python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the final tree (after the review: _consts shared): host time and bits (replay == general, CUDA graphs, the decode check), attention's GPU checks
timeout 200 python3 benchmarks/host_time.py 2>&1 | tee $OUT/host.log | tail -12
timeout 100 python3 benchmarks/attention_bench.py 2>&1 | grep -v Warn | grep "^ours" | tee $OUT/attention_bench.log
