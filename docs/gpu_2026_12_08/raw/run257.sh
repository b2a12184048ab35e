# Run 257 (prepared, not run: the device's time): the spec's reduce tile (lanes; order-shaping) 256 as shipped against
# 512 and 1024 at the points behind Liger-Kernel (8 warps and 16-byte loads at 4096 take a tile of 1024), with each
# variant's row 0 alone against row 0 in the batch and its error against float64. The variants, built here first:
#   for t in 512 1024; do mkdir -p /tmp/s$t; for op in layer_norm add_rms_norm rms_norm softmax_held; do
#     sed "s/^tile   N = 256\(.*\)/tile   N = $t\1/" specs/$op.red > /tmp/s$t/$op.red; done
#     python -m redgen build /tmp/s$t --target cuda --out /tmp/g$t --no-empirical -q; mkdir -p _scratch/run257
#     cp -r /tmp/g$t/cuda _scratch/run257/g$t; done
# then carry _scratch/run257 (with the Liger-Kernel 0.8.5 wheel in whl/).
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/run257/whl/*.whl && export PYTHONPATH=/tmp/site:$PWD || exit 1
start=$(date +%s)
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 320 python3 docs/gpu_2026_12_08/raw/run257_tiles.py 2>&1 | grep -v Warn | cut -c1-400 | tee $OUT/tiles.log
echo "all: $(( $(date +%s) - start )) s"
