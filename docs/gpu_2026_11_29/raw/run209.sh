#!/bin/bash
# Run 209: the GPU empirical check of argmax and argmin as built (float16 rows held too).
python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site _scratch/r209/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
python3 benchmarks/gpu_empirical_check.py argmax argmin 2>&1 | grep -v Warning | tee $OUT/run209_empirical.log
echo "all: $(( $(date +%s) - start )) s"
