#!/bin/bash
# Run 159 (stop 50): ncu of argmax's folded walk, f32 against bf16 (_scratch/run159.py).
S=smsp__warp_issue_stalled
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,${S}_long_scoreboard_per_warp_active.pct,${S}_short_scoreboard_per_warp_active.pct,${S}_math_pipe_throttle_per_warp_active.pct,${S}_lg_throttle_per_warp_active.pct,${S}_wait_per_warp_active.pct,${S}_not_selected_per_warp_active.pct,${S}_selected_per_warp_active.pct,${S}_mio_throttle_per_warp_active.pct,${S}_no_instruction_per_warp_active.pct,${S}_barrier_per_warp_active.pct
ncu --profile-from-start off --metrics $M --csv python3 _scratch/run159.py > $OUT/run159.csv 2> $OUT/run159.err
python3 - <<'PY'
import csv, os, collections
rows = list(csv.reader(open(os.environ["OUT"] + "/run159.csv")))
hdr_i = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
hdr = rows[hdr_i]
k = collections.OrderedDict()
for r in rows[hdr_i + 1:]:
    d = dict(zip(hdr, r))
    k.setdefault((d["ID"], d["Kernel Name"][:24]), {})[d["Metric Name"]] = d["Metric Value"]
for (i, name), m in k.items():
    print(i, name)
    for a, v in m.items():
        print("   ", a, v)
PY
grep "^==" $OUT/run159.csv | head; tail -3 $OUT/run159.err
