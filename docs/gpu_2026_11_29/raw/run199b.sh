#!/bin/bash
python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site _scratch/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
python3 -m ruff --version; start=$(date +%s)
python3 benchmarks/gpu_empirical_check.py softmax log_softmax fp8_quant softmax_held 2>&1 | grep -v Warning | tee $OUT/run199_empirical.log
echo "all: $(( $(date +%s) - start )) s"
