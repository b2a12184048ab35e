# Run 255 (H100, the tree of dec5005): the row kernels' L2 prefetch turned back on past ROW_PREFETCH_MAX (then 24576), where runs
# 252-254 timed none, with the copy bandwidth measured in the same run. bash docs/gpu_2026_12_08/raw/run255.sh (carry
# _scratch/run255 with the Liger-Kernel 0.8.5 wheel in whl/). The timeout ran as 300 s.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run255/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import torch; from gpu_run import copy_bandwidth; print(torch.cuda.get_device_name(), 'copy GB/s', round(copy_bandwidth(), 1))" 2>&1 | grep -v Warn | tee $OUT/copy.log
timeout 200 python3 docs/gpu_2026_12_07/raw/run251_knobs.py bound 2>&1 | grep -v Warn | cut -c1-600 | tee $OUT/bound.log
echo "all: $(( $(date +%s) - start )) s"
