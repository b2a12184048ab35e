# Run 246: the attention grid fix on a GPU (decode.py), then host_time.py (its decode check crosses 256s).
nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
PYTHONPATH=. timeout 200 python3 _scratch/run246/decode.py 2>&1 | grep -v Warn | sed 's#/.*/site-packages/##' | cut -c1-160 | tee $OUT/decode.log
echo "decode: $(( $(date +%s) - start )) s"
PYTHONPATH=. timeout 300 python3 benchmarks/host_time.py --json $OUT/host.json > $OUT/host.log 2>&1; tail -16 $OUT/host.log
echo "all: $(( $(date +%s) - start )) s"
timeout 200 python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -8 $OUT/model.log
echo "all+model: $(( $(date +%s) - start )) s"
