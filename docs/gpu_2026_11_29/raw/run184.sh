#!/bin/bash
# Run 184: var and std as built against the session start's modules; host time per call; the model under the mode.
start=$(date +%s)
python3 _scratch/r184/run184.py > $OUT/run184_var.log 2>&1; cut -c1-300 $OUT/run184_var.log
python3 _scratch/r184/run184.py std > $OUT/run184_std.log 2>&1; cut -c1-300 $OUT/run184_std.log
echo "var/std: $(( $(date +%s) - start )) s"
PYTHONPATH=. python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -30 $OUT/host.log
echo "host: $(( $(date +%s) - start )) s"
python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -8 $OUT/model.log
echo "all: $(( $(date +%s) - start )) s"
