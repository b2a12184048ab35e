#!/bin/bash
start=$(date +%s)
python3 docs/gpu_2026_11_29/raw/run199.py 2>&1 | grep -v Warning | tee $OUT/run199.log
echo "timing: $(( $(date +%s) - start )) s"
python3 benchmarks/gpu_empirical_check.py softmax log_softmax rms_norm layer_norm add_rms_norm fp8_quant 2>&1 | tee $OUT/run199_empirical.log
echo "all: $(( $(date +%s) - start )) s"
