"""Which spec names generated code may use, and which it must not (issue 10, "Names").

Generated code names everything itself (emit.Names: in_<i>, p_<i>, out_<i>, r_<i>,
v_<i>, kernels _k_*); spec names appear only in comments, docstrings and messages,
and in two public places:

- the op name: the module's file name and its launcher function. It must be a
  Python identifier that rebinds nothing the module uses (`op_name_problem`; the
  checker refuses it with E151 otherwise);
- input and parameter names: the launcher's argument names (`rms_norm(x, w, eps=...)`)
  when `usable`; otherwise the launcher takes the emitter's name for that argument
  and its docstring says so.
"""

from __future__ import annotations

import builtins
import keyword
import re

# A launcher's own argument names, besides keywords and names starting with '_'.
RESERVED_ARGS = frozenset({"dim", "keepdim", "dtype"})
MANGLED = re.compile(r"(in|out|p|r|v)_\d+")
# The module's own global names (imports, constants): an op name may not rebind them.
MODULE_NAMES = frozenset({"annotations", "functools", "math", "operator", "os", "sys", "threading", "torch", "triton", "tl",
                          "CERTIFICATE", "OUTPUTS", "LANES", "CORES", "BLOCK_ROWS", "SPLIT_BELOW",
                          "FINISH_BLOCK", "LAUNCH_OPTIONS", "EmptyReduceAxis"})
# Builtins no generated module calls: an op may be named after one (torch's `sum`, `all`...).
SHADOWABLE_BUILTINS = frozenset({"sum", "all", "abs", "pow", "round", "divmod", "hash", "id", "input", "open",
                                 "print", "vars", "format", "help", "copyright", "credits", "license", "exit",
                                 "quit"})


def _keyword(name: str) -> bool:
    return keyword.iskeyword(name) or keyword.issoftkeyword(name)


def usable(name: str) -> bool:
    """A spec name the launcher can take as its own argument name."""
    return (name.isidentifier() and not _keyword(name) and not name.startswith("_")
            and name not in RESERVED_ARGS and not MANGLED.fullmatch(name))


def op_name_problem(name: str) -> str | None:
    """Why `name` cannot name a generated module and its launcher, or None."""
    if not name.isidentifier():
        return "is not a Python identifier"
    if _keyword(name):
        return "is a Python keyword"
    if name.startswith("_"):
        return "starts with '_' (the generated module's private names do)"
    if name in MODULE_NAMES:
        return "is a name the generated module imports or defines"
    if name in dir(builtins) and name not in SHADOWABLE_BUILTINS:
        return "is a Python builtin the generated module calls"
    return None
