"""The helpers of runs 256-257: Liger-Kernel's forward at each op this directory times, and a generated module's
function loaded from a path under a name of its own (two builds of one op side by side)."""
import importlib.util

_n = [0]


def liger_ops():
    """op -> Liger-Kernel's forward with the op's arguments; {} where Liger-Kernel is not installed."""
    try:
        from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction as A
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction as L
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction as R
        from liger_kernel.ops.softmax import LigerSoftmaxFunction as S
    except ImportError:
        return {}
    return {"softmax_held": lambda x, *_: S.apply(x), "rms_norm": lambda x, w: R.apply(x, w, 1e-6, 0.0, "llama", False),
            "layer_norm": lambda x, w, b: L.apply(x, w, b, 1e-5),
            "add_rms_norm": lambda x, r, w: A.apply(x, r, w, 1e-6, 0.0, "llama", False)[0]}


def mod(path, op):
    """The function `op` of the generated module at `path`, imported as a module of its own."""
    _n[0] += 1
    s = importlib.util.spec_from_file_location(f"m{_n[0]}_{op}", path)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return getattr(m, op)
