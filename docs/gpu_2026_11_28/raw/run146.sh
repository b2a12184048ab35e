#!/bin/bash
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site _scratch/whl/*.whl
export PYTHONPATH=/tmp/site:$PWD
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__cycles_active.avg,sm__cycles_elapsed.max,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
ncu --profile-from-start off --metrics $M --csv python3 _scratch/run146.py > $OUT/run146.csv 2> $OUT/run146.err
python3 - <<'PY'
import csv, os, collections
rows = list(csv.reader(open(os.environ["OUT"] + "/run146.csv")))
hdr_i = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
hdr = rows[hdr_i]
k = collections.OrderedDict()
for r in rows[hdr_i + 1:]:
    d = dict(zip(hdr, r))
    key = (d["ID"], d["Kernel Name"][:40])
    k.setdefault(key, {})[d["Metric Name"]] = d["Metric Value"]
for (i, name), m in k.items():
    print(i, name, " ".join(f"{a.split('__')[1][:28]}={v}" for a, v in m.items()))
PY
grep "^==" $OUT/run146.csv | head -20
tail -5 $OUT/run146.err
