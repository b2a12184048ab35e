set -u
D=_scratch/run235
M="smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct"
for job in "softmax 4096 32000" "log_softmax 4096 32000" "logsumexp_held 4096 22528" "argmax 4096 32000" "softmax 1024 151936"; do
  set -- $job
  ncu --kernel-name regex:"_k_rows" --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy \
    --section SchedulerStats --section LaunchStats --section ComputeWorkloadAnalysis --metrics $M \
    python $D/prof.py $1 $2 $3 > $OUT/ncu_$1_$2x$3.txt 2>&1
  echo "== $job"; grep -E "^  _k_|Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Issue Slots Busy|Grid Size|Block Size|stalled" $OUT/ncu_$1_$2x$3.txt | sed 's/  */ /g' | sed 's/smsp__warp_issue_stalled_//; s/_per_warp_active.pct//'
done
