#!/bin/bash
python3 docs/gpu_2026_11_29/raw/run200.py 2>&1 | grep -v Warning | tee $OUT/run200.log
ncu --kernel-name regex:_k_rows_ --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
  python3 docs/gpu_2026_11_29/raw/run200.py held > $OUT/run200_held.log 2>&1
grep -E "  _k_|Duration|DRAM Throughput|Issue Slots|Achieved Occ|Theoretical Occ|Registers Per|Block Limit Reg|Warp Cycles Per Issued|Grid Size|Threads  |Eligible Warps" $OUT/run200_held.log
