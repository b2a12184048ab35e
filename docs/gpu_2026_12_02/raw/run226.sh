#!/bin/bash
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/r224/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
B=_scratch/r226/bench.py
start=$(date +%s)
for op in rms_norm add_rms_norm layer_norm softmax; do for v in now l2 l2fw16 liger; do
  timeout 150 python3 -u $B warm $op $v > $OUT/warm_${op}_$v.log 2>&1 & done; done
wait
echo "warm: $(( $(date +%s) - start )) s"
grep -L "^warm" $OUT/warm_*.log | xargs -r -n1 sh -c 'echo "$0: not warmed"; tail -3 $0'
timeout $(( 300 - ($(date +%s) - start) )) python3 -u $B time rms_norm,add_rms_norm,layer_norm,softmax now,l2,l2fw16 2>&1 | grep -E "^\||device|Error"
echo "all: $(( $(date +%s) - start )) s"
