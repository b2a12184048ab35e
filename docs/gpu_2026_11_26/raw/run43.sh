python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
echo "| mode | plain s | mode s | ratio |"; echo "|---|---|---|---|"
timeout 400 python3 _scratch/run43_floor.py --reps 8 2>&1 | tee $OUT/floor.log | tail -5
