python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# the model's generate time, plain and under the mode, interleaved, with this tree (last measured in run 5)
timeout 500 python3 benchmarks/model_bench.py --split 2>&1 | tee $OUT/model.log | tail -25
