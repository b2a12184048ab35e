set -o pipefail
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
for spec in "mean generated/cuda/mean.py bf16 64x512x1024" "mean generated/cuda/mean.py bf16 16x2048x2048" "mean generated/cuda/mean.py f32 16x2048x2048" "mean torch bf16 16x2048x2048" "mean bench_variants/mean_c_notree.py bf16 16x2048x2048"; do
  set -- $spec
  tag=$(echo "$2_$3_$4" | tr '/.' '__')
  timeout 120 ncu --clock-control none --launch-skip 2 --launch-count 1 -k regex:'cols|reduce' --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis python3 _scratch/ncu_one.py $spec > $OUT/ncu_$tag.txt 2>&1
  echo "== $spec"; grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit Reg|Stall|Waves Per SM|Grid Size|Block Size|Shared Memory Configuration Size|Dynamic Shared|Static Shared" $OUT/ncu_$tag.txt | head -24
done
timeout 400 python3 _scratch/cols_var.py mean late,w8,w2,b64w8,b16w2,notree,late_u2,late_w8 2>&1 | tee $OUT/cols_var.log
