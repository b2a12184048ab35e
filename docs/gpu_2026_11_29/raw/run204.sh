#!/bin/bash
python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site _scratch/r204/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
python3 _scratch/r204/run204.py 2>&1 | grep -v Warning | tee $OUT/run204.log
echo "timing: $(( $(date +%s) - start )) s"
python3 benchmarks/gpu_empirical_check.py argmax argmin 2>&1 | grep -v Warning | tee $OUT/run204_empirical.log
echo "all: $(( $(date +%s) - start )) s"
