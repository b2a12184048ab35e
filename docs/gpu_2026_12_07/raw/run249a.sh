#!/bin/bash
# Run 249a: the norms, the softmax family and logsumexp against torch, Liger-Kernel 0.8.5 and torch.compile (tree of 3db42d0), as run 224a.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run249/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee $OUT/device.txt
python3 -c "import torch, triton, liger_kernel; print('torch', torch.__version__, 'triton', triton.__version__)"
python3 benchmarks/ops_bench.py --ops rms_norm,layer_norm,add_rms_norm,softmax,log_softmax,logsumexp --peers liger,compile --warm-procs 14 --budget-s 520 --out $OUT/norms > $OUT/norms.log 2>&1
grep -E "^warmed|Traceback|Error" $OUT/norms.log | head; grep -A9 "^Per op" $OUT/norms.log; grep -E "skipped|run took|points," $OUT/norms.log | cut -c1-600
python3 benchmarks/plot_ops.py $OUT/norms/results.json $OUT/norms.png > /dev/null 2>&1 || echo "plot failed"
echo "all: $(( $(date +%s) - start )) s"
