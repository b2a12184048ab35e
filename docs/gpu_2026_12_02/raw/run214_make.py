"""Run 214 variants of fp8_quant: its divisions (the scale amax / fp8_max, the quotient x / s) as
Triton's `/` (div.full.f32, the shipped module), as tl.math.div_rn (IEEE, as torch), or the quotient
by the row's reciprocal (div_rn once a row) and one fma correction (exact where the residual is
nonzero and finite; q0 where it is 0 or NaN: an exact q0, or a special value)."""
import re
from pathlib import Path
src = Path("generated/cuda/fp8_quant.py").read_text()
out = Path("_scratch/r214")
(out / "fp8_quant_now.py").write_text(src)
rn = src.replace("(r_0_tot / p_0)", "tl.math.div_rn(r_0_tot, p_0)").replace("(in_0_v / v_0_row[:, None])", "tl.math.div_rn(in_0_v, v_0_row[:, None])")
assert rn.count("div_rn") == 13, rn.count("div_rn")
(out / "fp8_quant_rn.py").write_text(rn)
helper = '''
@triton.jit
def _rg_qdiv(x, s):
    # x / s rounded as IEEE division: the row's reciprocal rounded (div_rn), q0 = x * r, the residual
    # x - q0 * s exact in an fma, q0 corrected by residual * r; q0 itself where the residual is 0 (q0
    # exact, its zero's sign kept) or NaN (an inf or 0 operand: q0 is IEEE's special value).
    r = tl.math.div_rn(1.0, s)
    q0 = x * r
    e = tl.fma(-q0, s, x)
    return tl.where((e != 0.0) & (e == e), tl.fma(e, r, q0), q0)


'''
i = src.index("@triton.jit\ndef _idx(")
mk = src[:i] + helper.lstrip("\n") + src[i:]
mk = mk.replace("(r_0_tot / p_0)", "tl.math.div_rn(r_0_tot, p_0)").replace("(in_0_v / v_0_row[:, None])", "_rg_qdiv(in_0_v, v_0_row[:, None])")
(out / "fp8_quant_mk.py").write_text(mk)
# run214b's mk2: mk with the scale's division as shipped (Triton's `/`), its quotient as mk's
mk2 = (out / "fp8_quant_mk.py").read_text().replace("tl.math.div_rn(r_0_tot, p_0)", "(r_0_tot / p_0)")
(out / "fp8_quant_mk2.py").write_text(mk2)
