python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo "== build"; python3 -c "from redgen.runtime import fast_route; print(fast_route.status())" 2>&1 | tail -3
echo "== host"; timeout 300 python3 benchmarks/host_time.py --json $OUT/host.json 2>&1 | grep -v Warn | tee $OUT/host.log | tail -20
