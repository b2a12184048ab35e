#!/usr/bin/env bash
# Run 128: the GPU empirical check of the modules named in MODS (templates of the working tree), then run128.py.
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/lark*.whl .whl/z3*.whl .whl/ruff*.whl || exit 1
echo ${MODS:-sum mean nansum amax amin vector_norm} | tr ' ' '\n' | PYTHONPATH=$PWD:/tmp/site PATH=/tmp/site/bin:$PATH timeout 200 xargs -P 6 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run128_empirical.log | cut -c1-300
timeout ${T:-330} python3 _scratch/run128.py "$@" 2>&1 | grep -v Warn | tee $OUT/run128.log
