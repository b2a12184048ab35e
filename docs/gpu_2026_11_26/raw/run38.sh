python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 _scratch/run38_micro.py 2>&1 | tee $OUT/micro.log
timeout 200 python3 _scratch/run38_prof.py 2>&1 > $OUT/prof.log; tail -3 $OUT/prof.log; head -12 $OUT/prof.log
timeout 200 py-spy record -r 1000 -f raw -o $OUT/spy.txt -- python3 _scratch/run38_prof.py spy 2>&1 | tail -5
ls -la $OUT
