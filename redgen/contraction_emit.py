"""Stage 5 for contractions: ContractionPlan (+ certificate) -> module source, via Jinja.

Python decides here, the templates (templates/<target>/contraction.py.j2 and the
common contraction_*.j2 macros) only format. Generated names are the emitter's own
(a, b, e0.. for inputs, p0.. for parameters, total for the sum); spec names appear
only in docstrings and comments.
"""

from __future__ import annotations

from dataclasses import dataclass

from redgen import __version__, ir, targets
from redgen.contraction import ContractionPlan
from redgen.emit import TORCH_DTYPES, _env, replay_key
from redgen.exprs import helpers, pow_form, pow_params, render
from redgen.names import usable


@dataclass(frozen=True)
class EpilogueInput:
    arg: str  # launcher argument
    label: str  # for messages: "e0 (bias[N])"
    ptr: str
    value: str
    strides: tuple[str, ...]  # kernel argument names
    stride_args: tuple[str, ...]  # launcher expressions
    offset: str  # pointer offset source in the kernel
    mask: str
    dims: tuple[str, ...]  # expected shape, launcher source


@dataclass(frozen=True)
class ParamCtx:
    name: str  # kernel argument
    arg: str  # the launcher's own name for it (_run's parameter)
    pub: str  # the launcher's keyword: the spec's name where usable, else `arg`
    form: str = ""  # an epilogue raises to it: the kernel's constexpr beside it (exprs.pow_form)


@dataclass(frozen=True)
class ContractionCtx:
    op: str
    spec_path: str
    spec_digest: str
    version: str
    certificate_lines: tuple[str, ...]
    certificate_literal: str
    certificate_digest: str
    dtypes: str
    dtype_names: str
    block_k: int
    split: bool
    chunk: int
    regimes: str
    interpret_programs: int
    fill: float
    cores: int | None
    batch: bool
    b_nk: bool
    ndim: int
    signature: str
    doc: str
    sum_line: int  # provenance: the spec line of `reduce K: s = sum(a * b)` (# spec:LINE)
    out_line: int  # ...and of the output's expression
    args_doc: str
    shapes_doc: str
    a_arg: str
    b_arg: str
    checked: tuple[tuple[str, str], ...]
    epilogue: tuple[EpilogueInput, ...]
    params: tuple[ParamCtx, ...]
    epilogue_expr: str
    helpers: tuple[str, ...]  # element-wise helpers the epilogue calls (templates/common/macros.j2)
    out_shape: str
    out_dtype: str
    s_ab: str
    s_bb: str
    s_yb: str
    launch_options: str
    run_args: str = ""  # the public arguments in order, positional: _run's parameters
    call_args: str = ""  # ...as the public function names them (a parameter's keyword)
    replay_knobs: str = ""  # see emit.ModuleCtx.replay_knobs
    replay_key: str = ""  # see emit.ModuleCtx.replay_key


_ROLE = {"batch": ("b", "bi.to(tl.int64)", "NB"), "m": ("m", "rm[:, None]", "M"), "n": ("n", "rn[None, :]", "N")}
_MASK = {"m": "(rm[:, None] < M)", "n": "(rn[None, :] < N)"}


def _shape(op: ir.Contraction, i: ir.Input) -> str:
    return f"{i.name}[{', '.join(i.axes)}]"


def _epilogue(op: ir.Contraction, idx: int, i: ir.Input) -> EpilogueInput:
    roles = {op.batch: "batch", op.m: "m", op.n: "n"}
    mine = [roles[a] for a in i.axes]
    strides = tuple(f"s_e{idx}_{_ROLE[r][0]}" for r in mine)
    offset = "".join(f" + {_ROLE[r][1]} * {s}" for r, s in zip(mine, strides, strict=True))
    mask = " & ".join(_MASK[r] for r in mine if r in _MASK)
    return EpilogueInput(
        arg=f"e{idx}", label=f"e{idx} ({_shape(op, i)})", ptr=f"e{idx}_ptr", value=f"e{idx}_v", strides=strides,
        stride_args=tuple(f"e{idx}.stride({p})" for p in range(len(mine))), offset=offset, mask=mask,
        dims=tuple(_ROLE[r][2] for r in mine),
    )


def context(plan: ContractionPlan, certificate) -> ContractionCtx:
    op = plan.op
    eps = tuple(_epilogue(op, j, i) for j, i in enumerate(op.epilogue))
    raised = pow_params([op.output.expr])
    # The emitter's own argument names, every p<j> among them: a spec name falling back to p<j> then
    # never meets one kept (params p1 and dim: p1 -> p0, dim -> p1).
    taken = {"a", "b", *(f"e{j}" for j in range(len(eps))), *(f"p{j}" for j in range(len(op.params)))}
    params = []
    for j, p in enumerate(op.params):
        # As a reduction's launcher: the spec's name as the keyword where Python and the arguments allow it.
        pub = p.name if usable(p.name) and p.name not in taken else f"p{j}"
        taken.add(pub)
        params.append(ParamCtx(f"p{j}", f"p{j}", pub, pow_form(f"p{j}") if p.name in raised else ""))
    params = tuple(params)
    epi_names = {i.name: e.value for i, e in zip(op.epilogue, eps, strict=True)}
    par_names = {p.name: q.name for p, q in zip(op.params, params, strict=True)}

    def name(r: ir.Ref) -> str:
        if r.kind == "reduce":
            return "total"
        if r.kind == "input":
            return epi_names[r.name]
        if r.kind == "param":
            return par_names[r.name]
        raise AssertionError(f"the checker admits no {r.kind} in an epilogue")

    args = ["a", "b", *(e.arg for e in eps)]
    sig = ", ".join(args) + "".join(f", *, {q.pub}={p.default!r}" if j == 0 else f", {q.pub}={p.default!r}"
                                    for j, (p, q) in enumerate(zip(op.params, params, strict=True)))
    spec_of = [op.a, op.b, *op.epilogue]
    args_doc = "; ".join(f"{x} is {_shape(op, i)}" for x, i in zip(args, spec_of, strict=True))
    args_doc += "".join(f"; {q.pub} is the parameter {p.name} (default {p.default!r})"
                        for p, q in zip(op.params, params, strict=True))
    bshape = f"[{', '.join(op.b.axes)}]"
    ashape = f"[{', '.join(op.a.axes)}]"
    o = op.output
    out_dtype = "x0.dtype" if o.like else TORCH_DTYPES[o.dtype]
    dts = [TORCH_DTYPES[d] for d in op.dtypes]
    split = plan.order.split_kind == "fixed_size"
    t = targets.get(plan.target)
    launch = ("num_warps=warps, num_stages=stages, " if t.launch_warps else "") + t.launch_options + ","
    return ContractionCtx(
        op=op.name, spec_path=op.path, spec_digest=op.digest, version=__version__,
        certificate_lines=tuple(certificate.lines()), certificate_literal=certificate.to_literal(),
        certificate_digest=certificate.digest(), sum_line=op.sum_loc.line, out_line=op.output.loc.line,
        dtypes="".join(f"{d}, " for d in dts), dtype_names=", ".join(dts),
        block_k=plan.order.lanes.eval({}), split=split,
        chunk=plan.order.chunk.eval({}) if split else 1 << 30,
        regimes="{" + ", ".join(f"{TORCH_DTYPES[d]}: " + repr(tuple((r.max_m, r.block_m, r.block_n, r.group_m,
                                                                     r.warps, r.stages) for r in rs))
                              for d, rs in plan.regimes) + "}",
        interpret_programs=plan.interpret_programs, fill=plan.fill, cores=plan.cores,
        batch=op.batch is not None, b_nk=op.b_nk, ndim=3 if op.batch else 2,
        signature=sig, doc=f"{_shape(op, o)} = {o.name} of `{op.a.name} {ashape} x {op.b.name} {bshape}` "
        f"summed over {op.k}, batch invariant.", args_doc=args_doc,
        shapes_doc=f"a {ashape}, b {bshape}", a_arg="a", b_arg="b",
        checked=tuple((x, f"{x} ({_shape(op, i)})") for x, i in zip(args, spec_of, strict=True)),
        epilogue=eps, params=params, epilogue_expr=render(o.expr, name), helpers=helpers([o.expr]),
        out_shape="(NB, M, N)" if op.batch else "(M, N)", out_dtype=out_dtype,
        s_ab="x0.stride(0)" if op.batch else "0", s_bb="x1.stride(0)" if op.batch else "0",
        s_yb="y.stride(0)" if op.batch else "0", launch_options=launch,
        run_args=", ".join([*args, *(q.arg for q in params)]),
        call_args=", ".join([*args, *(q.pub for q in params)]),
        replay_knobs="(_INTERPRET, FORCE_REGIME, SPLIT, CHUNK, BLOCK_K, INTERPRET_PROGRAMS)" if t.replay else "",
        replay_key=replay_key(args, [*args, *(q.pub for q in params)]) if t.replay else "",
    )


def emit_contraction(plan: ContractionPlan, certificate) -> str:
    """Source of the generated module for a contraction plan."""
    return _env().get_template(f"{targets.get(plan.target).templates}/contraction.py.j2").render(m=context(plan, certificate))
