"""Variants: the held row kernels (_k_rows_across, _k_rows_row) prefetch into L2 the rows of the
program PF programs on (prefetch.global.L2 a 128-byte line a lane): its loads then hit L2 while
this program computes. A hint only: the same loads, values and order."""
import sys
from pathlib import Path

SRC = Path("generated/cuda")
OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)
OPS = ("softmax_held", "log_softmax_held", "layer_norm", "rms_norm")

HELPER = '''
@triton.jit
def _rg_prefetch(base, span, LINES: tl.constexpr):
    # One 128-byte line a lane of [base, base + span): prefetch.global.L2 (a hint; nothing read back).
    off = tl.minimum(tl.arange(0, LINES).to(tl.int64) * 128, span - 1)
    addr = base.to(tl.pointer_type(tl.int8)) + off
    tl.inline_asm_elementwise(
        "prefetch.global.L2 [$1]; mov.u32 $0, 0;", "=r,l", [addr], dtype=tl.int32, is_pure=False, pack=1
    )


'''


def kernel_variant(text, name):
    start = text.index(f"def {name}(")
    start = text.rindex("@triton.jit", 0, start)
    end = text.index("@triton.jit", start + 10)
    k = text[start:end]
    assert "    PID0,\n    WIDE: tl.constexpr," in k, name
    k = k.replace("    PID0,\n    WIDE: tl.constexpr,", "    PID0,\n    PF,\n    WIDE: tl.constexpr,")
    k = k.replace("\n):\n", "\n    PF_LINES: tl.constexpr,\n):\n", 1)
    k = k.replace('do_not_specialize=["M", "R", "PID0"]', 'do_not_specialize=["M", "R", "PID0", "PF"]')
    anchor = "    pid = _idx(tl.program_id(0), WIDE) + PID0\n"
    assert anchor in k
    k = k.replace(anchor, anchor + (
        "    if PF_LINES > 0:\n"
        "        nxt = (pid + PF) * BLOCK\n"
        "        if nxt < M:\n"
        "            span = ((tl.minimum(M - nxt, BLOCK) - 1) * s_in_0_m + N) * in_0_ptr.dtype.element_ty.primitive_bitwidth // 8\n"
        "            _rg_prefetch(in_0_ptr + nxt.to(tl.int64) * s_in_0_m, span, PF_LINES)\n"))
    return text[:start] + k + text[end:]


def variant(text, dist):
    i = text.index("@triton.jit\ndef _idx(")
    text = text[:i] + HELPER.lstrip("\n") + text[i:]
    for name in ("_k_rows_across", "_k_rows_row"):
        text = kernel_variant(text, name)
    old = "    for pid0 in range(0, programs, _MAX_GRID_0):\n        _go(\n            fused,\n"
    assert text.count(old) == 1
    new = ("    _p = fused is _k_rows_across or fused is _k_rows_row\n"
           "    if _p:\n"
           "        _sms = torch.cuda.get_device_properties(out_0_3d.device).multi_processor_count if out_0_3d.is_cuda else 132\n"
           f"        _pf = {dist} * _sms\n"
           "        _bytes = (block - 1) * s_in_0[0] * in_0_3d.element_size() + N * in_0_3d.element_size()\n"
           "        _lines = 0 if (_INTERPRET and not __import__('os').environ.get('RG_PF_COMPILE')) or programs <= _pf else 1 << max(0, (-(-_bytes // 128) - 1).bit_length())\n"
           "        consts = dict(consts, PF_LINES=_lines)\n" + old)
    text = text.replace(old, new)
    i = text.index(new)
    j = text.index("                pid0,\n                wide,\n", i)
    text = text[:j] + "                pid0,\n                *((_pf,) if _p else ()),\n                wide,\n" + text[j + len("                pid0,\n                wide,\n"):]
    return text


for op in OPS:
    t = (SRC / f"{op}.py").read_text()
    for dist in (1, 2):
        (OUT / f"{op}_pf{dist}.py").write_text(variant(t, dist))
    (OUT / f"{op}_shipped.py").write_text(t)
