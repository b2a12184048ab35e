# Run 252 (one call, the device's time short): run 250's attention families (bits, the mode, decode host time), run 251's knob sweep at six points, model_bench. bash docs/gpu_2026_12_07/raw/run252.sh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run251/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
start=$(date +%s)
timeout 250 python3 docs/gpu_2026_12_07/raw/run250_decode.py 2>&1 | grep -v Warn | cut -c1-400 | tee $OUT/decode.log
echo "decode: $(( $(date +%s) - start )) s"
timeout 140 python3 docs/gpu_2026_12_07/raw/run251_knobs.py quick 2>&1 | grep -v Warn | cut -c1-600 | tee $OUT/knobs.log
echo "knobs: $(( $(date +%s) - start )) s"
timeout 110 python3 benchmarks/model_bench.py > $OUT/model.log 2>&1; tail -7 $OUT/model.log
echo "all: $(( $(date +%s) - start )) s"
