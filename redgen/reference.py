"""The meaning of a spec: a float64 evaluator of the typed IR.

Independent of the plan, the templates and Triton: it reads only the `ir.Op`
(inputs, parameters, reductions, locals, outputs) and computes every output in
float64 with torch, each reduction in one call over the whole reduce axis. The
empirical check and the differential test compare the emitted kernels with it
(at redgen.tolerances' per-dtype tolerances), so a kernel that is consistently
wrong -- batch invariant, but not computing its spec -- is caught too.

Layout: every tensor is handled as [B, N, A] (the batch axis before the reduce
axis, the reduce axis, the batch axis after it; a missing axis has size 1), an
input lacking an axis broadcasting over it, a per-row value as [B, 1, A].
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from redgen import functions, ir

_UNARY = {
    "neg": torch.neg, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt,
    "abs": torch.abs,
}
_BINARY = {
    "add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
    # tl.maximum / tl.minimum as the kernels use them (NaN propagates)
    "max": torch.maximum, "min": torch.minimum,
}


def _canonical(op: ir.Op, inp: ir.Input, t: torch.Tensor) -> torch.Tensor:
    """`t` (over the input's axes, in order) as a float64 [B|1, N|1, A|1] tensor."""
    roles = {op.before: 0, op.reduce_axis: 1, op.after: 2, **{a: 1 for a in op.reduce_axes}}
    # Several reduce axes (`reduce N1, N2 as N`) mean one merged axis, position n1*N2 + n2:
    # the input's dims in role order (reduce axes in their declared order), then merged.
    order = sorted(range(len(inp.axes)), key=lambda d: (roles[inp.axes[d]], d))
    shape = [1, 1, 1]
    for d in order:
        shape[roles[inp.axes[d]]] *= t.shape[d]
    return t.to(torch.float64).permute(order).reshape(shape)


class _Eval:
    def __init__(self, op: ir.Op, inputs: Mapping[str, torch.Tensor], params: Mapping[str, float]):
        self.op = op
        self.inputs = {i.name: _canonical(op, i, inputs[i.name]) for i in op.inputs}
        self.params = {p.name: float(params.get(p.name, p.default)) for p in op.params}
        self.n = self.inputs[op.inputs[0].name].shape[1]
        self.done: dict[tuple[str, str], torch.Tensor] = {}

    def ref(self, r: ir.Ref) -> torch.Tensor:
        key = (r.kind, r.name)
        if key in self.done:
            return self.done[key]
        if r.kind == "input":
            v = self.inputs[r.name]
        elif r.kind == "param":
            v = torch.tensor(self.params[r.name], dtype=torch.float64)
        elif r.kind == "size":
            if r.name != self.op.reduce_axis:
                raise ValueError(f"the reference reads only the reduce length, not '{r.name}'")
            v = torch.tensor(float(self.n), dtype=torch.float64)
        elif r.kind == "pos":  # the element's position along the reduce axis (gathers, masks)
            v = torch.arange(self.n, dtype=torch.float64).reshape(1, self.n, 1)
        elif r.kind == "local":
            v = self.expr(self.op.local(r.name).expr)
        elif r.kind == "reduce":
            red, comp = self.op.result(r.name)
            v = self.reduce(red)[red.spec.results.index(comp)]
        else:
            raise ValueError(f"unknown reference kind {r.kind!r}")
        self.done[key] = v
        return v

    def expr(self, e: ir.E) -> torch.Tensor:
        if isinstance(e, ir.Lit):
            return torch.tensor(float(e.value), dtype=torch.float64)
        if isinstance(e, ir.Ref):
            return self.ref(e)
        args = [self.expr(a) for a in e.args]
        if e.fn in _UNARY and len(args) == 1:
            return _UNARY[e.fn](args[0])
        if e.fn in _BINARY and len(args) == 2:
            return _BINARY[e.fn](args[0], args[1])
        try:  # the language's function table (tanh, where, comparisons, **: redgen/functions.py)
            fn = functions.reference(e.fn)
        except KeyError:
            fn = None
        if fn is not None:
            return torch.as_tensor(fn(*args), dtype=torch.float64)
        raise ValueError(f"the reference evaluator has no meaning for {e.fn!r} yet: add it to redgen/reference.py")

    def reduce(self, r: ir.Reduction) -> tuple[torch.Tensor, ...]:
        """Its results in float64, over the whole reduce axis at once: the combiner's own
        meaning (combiners.Combiner.reference), independent of any combine order."""
        b, a = self.shape_ba()
        return r.spec.reference(self.expr(r.expr).expand(b, self.n, a))

    def shape_ba(self) -> tuple[int, int]:
        b = max(t.shape[0] for t in self.inputs.values())
        a = max(t.shape[2] for t in self.inputs.values())
        return b, a


def evaluate(op: ir.Op, inputs: Mapping[str, torch.Tensor],
             params: Mapping[str, float] | None = None, keepdim: bool = False) -> dict[str, torch.Tensor]:
    """Every output of `op` in float64 (int64 for an argmax/argmin index), by output name.

    `inputs`: spec input name -> tensor over that input's axes (in the spec's order).
    A reduced output is over the batch axes [before, after] (the ones the op has; with
    `keepdim` the reduce axis too, as size 1), a mapped output over every axis of the
    first input.
    """
    ev = _Eval(op, inputs, params or {})
    b, a = ev.shape_ba()
    out = {}
    for o in op.outputs:
        v = ev.expr(o.expr)
        if o.mapped:
            v = v.expand(b, ev.n, a)
            shape = [n for n, ax in zip((b, ev.n, a), (op.before, op.reduce_axis, op.after), strict=True) if ax]
        else:
            v = v.expand(b, 1, a)
            shape = [n for n, ax in zip((b, 1, a), (op.before, op.reduce_axis if keepdim else None, op.after),
                                        strict=True) if ax]
        out[o.name] = v.reshape(shape)
    return out
