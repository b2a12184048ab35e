#!/bin/bash
# Run 139: the model's generate time, bmm's narrow-N rule, the norms against Liger-Kernel and torch.compile.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv | tee $OUT/device.txt
python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -8 $OUT/model.log
echo "model: $(( $(date +%s) - start )) s"
python3 benchmarks/matmul_bench.py --skip correctness,sweep,transformer,probe,invariance,timings --out $OUT/bmm > $OUT/bmm.log 2>&1; grep -E "bmm|Error|error" $OUT/bmm.log | tail -12
echo "bmm: $(( $(date +%s) - start )) s"
budget=$(( 540 - ($(date +%s) - start) ))
python3 benchmarks/ops_bench.py --ops rms_norm,add_rms_norm,layer_norm --peers liger,compile --budget-s $budget --out $OUT/norms > $OUT/norms.log 2>&1
grep -A8 "^Per op" $OUT/norms.log; grep -E "skipped|run took|Error" $OUT/norms.log | cut -c1-600
python3 benchmarks/plot_ops.py $OUT/norms/results.json $OUT/norms.png > /dev/null 2>&1 || echo "plot failed"
echo "all: $(( $(date +%s) - start )) s"
