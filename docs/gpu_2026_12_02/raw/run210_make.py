"""Variants of modules with _k_rows_across: a persistent loop over row blocks (grid PER_SM * SMs),
its loads pipelined by Triton (tl.range num_stages=STAGES)."""
import re
import sys
from pathlib import Path

SRC = Path("generated/cuda")
OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)
OPS = ("softmax_held", "log_softmax_held", "layer_norm", "rms_norm")


def variant(text, per_sm, stages):
    start = text.index("def _k_rows_across(")
    start = text.rindex("@triton.jit", 0, start)
    end = text.index("@triton.jit", start + 10)
    k = text[start:end]
    k = k.replace("def _k_rows_across(", "def _k_rows_across_p(")
    k = k.replace("    PID0,\n    WIDE: tl.constexpr,", "    PID0,\n    PROGRAMS,\n    GRID,\n    WIDE: tl.constexpr,")
    k = re.sub(r"\n\):\n", "\n    STAGES: tl.constexpr,\n):\n", k, count=1)
    head, body = k.split("    pid = _idx(tl.program_id(0), WIDE) + PID0\n")
    body = "".join(("    " + ln if ln.strip() else ln) for ln in body.splitlines(True))
    k = (head + "    for blk in tl.range(tl.program_id(0), PROGRAMS, GRID, num_stages=STAGES):\n"
         "        pid = _idx(blk, WIDE) + PID0\n" + body.rstrip() + "\n\n\n")
    text = text[:end] + k + text[end:]
    assert text.count("            fused = _k_rows_across\n") == 1
    text = text.replace("            fused = _k_rows_across\n", "            fused = _k_rows_across_p\n")
    old = "    for pid0 in range(0, programs, _MAX_GRID_0):\n        _go(\n            fused,\n            (min(programs - pid0, _MAX_GRID_0),),\n"
    assert text.count(old) == 1, "grid"
    new = ("    _p = fused is _k_rows_across_p\n"
           "    if _p:\n"
           f"        _g = min(programs, {per_sm} * (2 if _INTERPRET else torch.cuda.get_device_properties(out_0_3d.device).multi_processor_count))\n"
           f"        consts = dict(consts, STAGES={stages})\n"
           "    for pid0 in range(0, programs, _MAX_GRID_0):\n        _go(\n            fused,\n            (_g,) if _p else (min(programs - pid0, _MAX_GRID_0),),\n")
    text = text.replace(old, new)
    i = text.index(new)
    j = text.index("                pid0,\n                wide,\n", i)
    text = text[:j] + "                pid0,\n                *((programs, _g) if _p else ()),\n                wide,\n" + text[j + len("                pid0,\n                wide,\n"):]
    return text


for op in OPS:
    t = (SRC / f"{op}.py").read_text()
    for per_sm in (1, 2):
        for stages in (1, 2, 3):
            (OUT / f"{op}_g{per_sm}s{stages}.py").write_text(variant(t, per_sm, stages))
    (OUT / f"{op}_shipped.py").write_text(t)
