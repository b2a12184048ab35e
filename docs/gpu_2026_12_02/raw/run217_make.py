"""Run 217 variants: the row kernel's own form (_k_rows_row) of rows longer than 16384 under a register cap."""
import sys
from pathlib import Path
src, dst, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = Path(src).read_text()
at = "    # More programs than grid axis 0 holds"
assert t.count(at) == 1
inj = (f"    if fused is _k_rows_row and N > 16384 and consts.get('num_warps', 4) <= 4:\n"
       f"        consts = dict(consts, maxnreg={cap})\n")
Path(dst).write_text(t.replace(at, inj + at))
