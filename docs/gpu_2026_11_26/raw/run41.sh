python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the final tree (signatures kept across enables) against HEAD 02d969d, 8 interleaved rounds each, same machine
echo "== after"; timeout 330 python3 benchmarks/model_bench.py --split --reps 8 2>&1 | tee $OUT/model_after.log | tail -14
echo "== before"; (cd bench_variants/head && PYTHONPATH=$PWD:/tmp/site timeout 150 python3 benchmarks/model_bench.py 2>&1) | tee $OUT/model_before.log | tail -5
echo "== calls"; timeout 90 python3 _scratch/run37_calls.py 2>&1 | tee $OUT/calls.log | tail -8
