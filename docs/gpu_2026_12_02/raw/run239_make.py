"""Run 239 variant maker: the across kernel (_k_rows_across) persistent, its rows in a tl.range loop of
num_stages=STAGES, so that Triton's pipeliner issues the next rows' tile loads (async copies to shared
memory) while this program computes on its current rows; the L2 prefetch off. PID0 carries the program
count (the bench's launcher wrapper sets it, the grid and STAGES). The same per-row code.
    python make.py SRC.py DST.py"""
import sys
src, dst = sys.argv[1], sys.argv[2]
L = open(src).read().split("\n")
a = next(i for i, l in enumerate(L) if l.startswith("def _k_rows_across("))
end = next(i for i in range(a + 1, len(L)) if L[i].startswith(("@triton.jit", "def ", "# ---")) or (L[i] and not L[i][0].isspace() and not L[i].startswith(")")))
p = next(i for i in range(a, end) if L[i].strip() == "PF_LINES: tl.constexpr,")
L.insert(p + 1, "    STAGES: tl.constexpr,"); end += 1
s = next(i for i in range(a, end) if L[i].strip() == "pid = _idx(tl.program_id(0), WIDE) + PID0")
l0 = next(i for i in range(s, end) if L[i].startswith("    lanes = "))
body = L[l0:end]
while body and not body[-1].strip():
    body.pop()
tail = L[l0 + len(body):end]
new = ["    # Persistent: rows pid, pid + G, ... (G programs), their loads pipelined STAGES deep.",
       "    for pid0 in tl.range(tl.program_id(0), PID0, tl.num_programs(0), num_stages=STAGES):",
       "        pid = _idx(pid0, WIDE)"]
new += [("    " + x) if x.strip() else x for x in body]
L = L[:s] + new + tail + L[end:]
open(dst, "w").write("\n".join(L))
print("done", a, s, l0, end)
