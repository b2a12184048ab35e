"""Emit an attention plan: a typed context for templates/<target>/attention.py.j2."""

from __future__ import annotations

from dataclasses import dataclass

from redgen import __version__, targets
from redgen.attention import AttentionPlan
from redgen.emit import TORCH_DTYPES, _env


@dataclass(frozen=True)
class AttentionCtx:
    op: str  # the spec's op name, checked to be an identifier by the grammar
    spec_path: str
    spec_digest: str
    version: str
    certificate_lines: tuple[str, ...]
    certificate_literal: str
    certificate_digest: str
    dtypes: str  # torch dtypes, source of a tuple's items
    block_m: int
    block_n: int
    chunk: int
    num_warps: int
    num_stages: int
    causal: bool
    scale: str  # python source of the default scale: "None" (1/sqrt(D)) or a float literal
    split_below: int
    cores: int  # ascend: cube-core budget (unused by cuda)
    scores_line: int  # provenance (# spec:LINE) of the scores' contraction
    softmax_line: int  # ...and of the online softmax over the keys
    # the module globals a replayed call's signature holds (cuda's replay; the empirical check forces
    # SPLIT_BELOW)
    replay_knobs: str = "(_INTERPRET, SPLIT_BELOW)"


def context(plan: AttentionPlan, certificate) -> AttentionCtx:
    o = plan.order
    op = plan.op
    return AttentionCtx(
        op=op.name, spec_path=op.path, spec_digest=op.digest, version=__version__,
        certificate_lines=tuple(certificate.lines()), certificate_literal=certificate.to_literal(),
        certificate_digest=certificate.digest(),
        dtypes="".join(f"{TORCH_DTYPES[d]}, " for d in op.q.dtypes),
        block_m=o.block_m.eval({}), block_n=o.block_n.eval({}), chunk=o.chunk.eval({}),
        num_warps=o.num_warps, num_stages=plan.num_stages, causal=op.causal,
        scale="None" if op.scale is None else repr(op.scale), split_below=plan.split_below,
        cores=plan.cores or 0, scores_line=op.scores_line, softmax_line=op.loc.line,
    )


def emit(plan: AttentionPlan, certificate) -> str:
    return _env().get_template(f"{targets.get(plan.target).templates}/attention.py.j2").render(m=context(plan, certificate))
