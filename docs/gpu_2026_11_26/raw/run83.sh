#!/usr/bin/env bash
# Run 83: host time, the workspaces of a plan in one allocation (B) against one each (A), A B A B.
set -u
# _scratch/fast_route_onews.cpp: redgen/runtime/csrc/fast_route.cpp as committed after run 83 (one allocation a plan).
export PYTHONPATH=.
cp redgen/runtime/csrc/fast_route.cpp /tmp/fast_route_A.cpp
nvidia-smi --query-gpu=name --format=csv,noheader
for v in A B A B; do
  if [ $v = A ]; then cp /tmp/fast_route_A.cpp redgen/runtime/csrc/fast_route.cpp; else cp _scratch/fast_route_onews.cpp redgen/runtime/csrc/fast_route.cpp; fi
  python -c "from redgen.runtime import fast_route as f; print('ext', f.status())"
  echo "=== variant $v"
  python benchmarks/host_time.py --json $OUT/host_${v}_$RANDOM.json 2>&1 | grep -v Warning
done
cp /tmp/fast_route_A.cpp redgen/runtime/csrc/fast_route.cpp
