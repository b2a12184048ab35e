#!/bin/bash
which ncu; ncu --version | tail -1
for dt in bf16 f32; do
  ncu --kernel-name regex:_k_rows_fused --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section SchedulerStats --section ComputeWorkloadAnalysis --metrics smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,smsp__inst_executed.sum,dram__bytes.sum,lts__t_sector_hit_rate.pct \
    python3 docs/gpu_2026_11_29/raw/run196_prof.py $dt 4096 > $OUT/run196_$dt.log 2>&1
  grep -v "^    ---\|^$" $OUT/run196_$dt.log | grep -E "Duration|Throughput|Busy|Issued|Eligible|Active Warps|Theoretical Occ|Achieved Occ|Registers|Block Limit|Stall|Warp Cycles|No Eligible|L2 Hit|L1/TEX Hit|Mem Busy|Max Bandwidth|Executed Ipc|Issue Slots|Threads|Grid|DRAM|smsp__pcsamp|One or More|schedule|warps|Shared" | head -60; grep -E "stalled|inst_executed.sum|dram__bytes|sector_hit" $OUT/run196_$dt.log
  echo ====
done
