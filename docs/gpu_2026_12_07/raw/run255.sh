# Run 255 (prepared on 2026-12-07, not run: the device's time was spent): the row kernels' L2 prefetch turned back on past ROW_PREFETCH_MAX (the shipped modules leave it out at rows of 24577-32768), where runs 252-254 timed none. On an H100, then on an H200 (run 212 had rows of 32000 gain there). bash docs/gpu_2026_12_07/raw/run255.sh (carry _scratch/run255 with the Liger wheel in whl/)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run255/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
timeout 500 python3 docs/gpu_2026_12_07/raw/run251_knobs.py bound 2>&1 | grep -v Warn | cut -c1-600 | tee $OUT/bound.log
echo "all: $(( $(date +%s) - start )) s"
