"""A float64 evaluation of a spec's IR with torch: the accuracy reference for specs that
use the language's element-wise functions (tests/test_language.py).

Every function is evaluated by redgen.functions.reference, the same table the checker
and the emitter read, so a function added there is covered here without a second list.
Reductions are torch's own (sum/amax/amin in float64), independent of redgen's order.
"""

from __future__ import annotations

import torch

from redgen import functions, ir

_ARITH = {"neg": torch.neg, "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}
_COMBINE = {"sum": torch.sum, "max": torch.amax, "min": torch.amin}


def evaluate(op: ir.Op, inputs: dict[str, torch.Tensor], params: dict[str, float] | None = None
             ) -> dict[str, torch.Tensor]:
    """Every output of `op` for `inputs` (by spec name, laid out as the spec declares them),
    in float64 (integer inputs stay int64). Reduced outputs drop the reduce axis."""
    axes = op.primary.axes
    red = axes.index(op.reduce_axis)
    shape = list(inputs[op.primary.name].shape)
    size = dict(zip(axes, shape, strict=True))
    vals = {p.name: float(p.default) for p in op.params} | (params or {})
    memo: dict[str, torch.Tensor] = {}

    def full(name: str) -> torch.Tensor:
        i = next(x for x in op.inputs if x.name == name)
        t = inputs[name]
        t = t if i.integer else t.double()
        return t.reshape([size[a] if a in i.axes else 1 for a in axes])

    def ev(e: ir.E) -> torch.Tensor:
        if isinstance(e, ir.Lit):
            return torch.tensor(e.value, dtype=torch.float64)
        if isinstance(e, ir.Ref):
            if e.kind == "input":
                return full(e.name)
            if e.kind == "param":
                return torch.tensor(vals[e.name], dtype=torch.float64)
            if e.kind == "size":
                return torch.tensor(float(size[e.name]), dtype=torch.float64)
            if e.kind == "pos":
                return torch.arange(size[op.reduce_axis]).reshape([-1 if a == op.reduce_axis else 1 for a in axes])
            if e.name not in memo:
                if e.kind == "reduce":
                    r, comp = op.result(e.name)
                    v = ev(r.expr).double().expand(shape)
                    if r.combiner == "softmax_stats":  # written out here, apart from redgen.combiners
                        m = torch.amax(v, red, keepdim=True)
                        terms = torch.where(v == float("-inf"), torch.zeros_like(v), torch.exp(v - m))
                        memo[e.name] = (m, terms.sum(red, keepdim=True))[comp]
                    else:
                        memo[e.name] = _COMBINE[r.combiner](v, red, keepdim=True)
                else:
                    memo[e.name] = ev(op.local(e.name).expr)
            return memo[e.name]
        args = [ev(a) for a in e.args]
        if e.fn in _ARITH:
            return _ARITH[e.fn](*args)
        return torch.as_tensor(functions.reference(e.fn)(*args)).double()

    out = {}
    for o in op.outputs:
        v = ev(o.expr).double()
        if o.mapped:
            out[o.name] = v.expand(shape).clone()
        else:
            out[o.name] = v.expand(shape[:red] + [1] + shape[red + 1 :]).squeeze(red).clone()
    return out
