#!/bin/bash
# Run 227: benchmarks/speed_report.py end to end on a small subset.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/r224/whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
start=$(date +%s)
timeout 230 python3 benchmarks/speed_report.py --out $OUT/sr --ops rms_norm,argmax --rows 1,4096 --hidden 4096 --dtypes bf16 --warm-procs 4
echo "rc=$? all: $(( $(date +%s) - start )) s"
cat $OUT/sr/report.md | cut -c1-300
