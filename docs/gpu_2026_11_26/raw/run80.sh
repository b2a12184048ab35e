python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 REDGEN_FAST_ROUTE=0
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c "import torch, triton; print(torch.__version__, triton.__version__)"
cp docs/gpu_2026_11_26/raw/run80_own.py docs/gpu_2026_11_26/raw/run80_ncu.py $OUT/
for op in softmax_held log_softmax_held; do for form in across own; do
  echo "== ncu $op $form"
  timeout 120 ncu --launch-skip 2 --launch-count 1 -k regex:_k_rows --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis python3 docs/gpu_2026_11_26/raw/run80_ncu.py $op $form > $OUT/run80_ncu_${op}_${form}.txt 2>&1
  grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Size|Warp Cycles Per Issued|L2 Hit|Mem Busy|Max Bandwidth|Function Name|_k_rows" $OUT/run80_ncu_${op}_${form}.txt | head -20
done; done
timeout 420 python3 docs/gpu_2026_11_26/raw/run80_own.py 2>&1 | grep -v Warn | tee $OUT/run80.log | tail -45
