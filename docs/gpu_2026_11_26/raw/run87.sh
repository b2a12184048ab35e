#!/usr/bin/env bash
# Run 86: the cols kernels' TILE walk (see run87.py).
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 540 python _scratch/run87.py nansum,softmax_held,var_held,vector_norm,argmax 2>&1 | grep -v Warn | tee $OUT/run87.log | tail -150
