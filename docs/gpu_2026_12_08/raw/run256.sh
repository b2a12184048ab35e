# Run 256 (H100, the tree of dec5005): the lane trees' last levels gathered in one exchange (PAIRS > 1; run256_gather.diff)
# against the shipped modules. The gather's modules: run256_gather.diff applied, `python -m redgen build` of
# rms_norm, layer_norm, add_rms_norm, softmax_held, log_softmax_held and sum into _scratch/run256/gather/ (their cuda
# modules), which the script reads; carry _scratch/run256 with the Liger-Kernel 0.8.5 wheel in whl/. Not adopted.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run256/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout 420 python3 docs/gpu_2026_12_08/raw/run256_gather.py 400 2>&1 | grep -v Warn | cut -c1-300 | tee $OUT/gather.log
echo "all: $(( $(date +%s) - start )) s"
