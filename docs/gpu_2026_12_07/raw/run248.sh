#!/bin/bash
# Run 248: host_time.py after a bound module hands its short rows' plan to its own C++ replay.
nvidia-smi --query-gpu=name --format=csv,noheader; PYTHONPATH=. timeout 240 python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -14 $OUT/host.log
