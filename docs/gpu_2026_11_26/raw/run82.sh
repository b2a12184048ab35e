python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH REDGEN_FAST_ROUTE=0
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"
cp docs/gpu_2026_11_26/raw/run82_tuned.py $OUT/
timeout 400 python3 docs/gpu_2026_11_26/raw/run82_tuned.py 2>&1 | grep -v Warn | tee $OUT/run82.log | tail -50
echo log_softmax log_softmax_held | tr ' ' '\n' | timeout 150 xargs -P 2 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run82_empirical.log | cut -c1-150
