# Prepared on 2026-12-07 and not run: the device could not be started again that session (its time ran out). bash docs/gpu_2026_12_07/raw/run250.sh
# Run 250: attention plans' families (C++ makes a new key length's plan), bits and host time; host_time.py; model_bench.py.
nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
PYTHONPATH=. timeout 260 python3 docs/gpu_2026_12_07/raw/run250_decode.py 2>&1 | grep -v Warn | cut -c1-400 | tee $OUT/decode.log
echo "decode: $(( $(date +%s) - start )) s"
PYTHONPATH=. timeout 150 python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -14 $OUT/host.log
echo "host: $(( $(date +%s) - start )) s"
timeout 120 python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -7 $OUT/model.log
echo "all: $(( $(date +%s) - start )) s"
