# Run 251: the row kernels' launch knobs at the points run 249 left behind Liger-Kernel (H100). bash docs/gpu_2026_12_07/raw/run251.sh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run251/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
timeout 400 python3 docs/gpu_2026_12_07/raw/run251_knobs.py 2>&1 | grep -v Warn | cut -c1-600 | tee $OUT/knobs.log
echo "all: $(( $(date +%s) - start )) s"
