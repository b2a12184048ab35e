#!/usr/bin/env bash
# Run 84: (1) host time, a plan's workspaces in one allocation (B, the tree) against one each (A), A B x 3;
# (2) log_softmax at 128-1024 rows of 20000 and 24576: row-form knobs at the points slower than torch.
set -u
# _scratch/fast_route_A.cpp: `git show 942b065:redgen/runtime/csrc/fast_route.cpp` (one allocation a workspace).
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
cp redgen/runtime/csrc/fast_route.cpp /tmp/fast_route_B.cpp
for i in 1 2 3; do
  for v in A B; do
    if [ $v = A ]; then cp _scratch/fast_route_A.cpp redgen/runtime/csrc/fast_route.cpp; else cp /tmp/fast_route_B.cpp redgen/runtime/csrc/fast_route.cpp; fi
    echo "=== variant $v ($i)"
    TORCH_EXTENSIONS_DIR=/tmp/ext_$v timeout 200 python benchmarks/host_time.py --only argmax,softmax,mean --json $OUT/run84_host_${v}$i.json 2>&1 | grep -v Warning | grep '^| [am s]'
  done
done
cp /tmp/fast_route_B.cpp redgen/runtime/csrc/fast_route.cpp
cp docs/gpu_2026_11_26/raw/run84_ls.py $OUT/
REDGEN_FAST_ROUTE=0 timeout 330 python docs/gpu_2026_11_26/raw/run84_ls.py 2>&1 | grep -v Warn | tee $OUT/run84_ls.log | tail -40
