#!/bin/bash
# Run 151 (prepared in stop 49): the reduce tile 512 / 1024 at latency-bound points, against Liger.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
timeout 560 python3 _scratch/run151.py 2>&1 | tee $OUT/run151.log | tail -110
