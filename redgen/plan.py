"""Stage 3: Op + target -> Plan, every schedule decision in one place.

The plan separates what shapes the floating-point order of an output element
(`Order`: lanes, chunk, tree, chunk combine, accumulator) from what only
decides *which program* computes a row (`Kernel` shapes, grids, the choice
between the fused and the split path). The verifier reads `Order`; the
emitter reads both. Shape-dependent values are `sym` expressions over the
shape symbols, so the launcher is printed from the same expressions the
verifier reasoned about.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ir, sym
from .errors import Loc
from .sym import SExpr

DEFAULT_LANES = 512  # reduce tile when the spec gives none
DEFAULT_WARPS = 4
DEFAULT_BLOCK_K = 16
FINISH_BLOCK = 128  # rows per program in the split path's second pass
# Below this many batch programs the launcher takes the split path (more
# programs along the reduce axis). A constant, not a device query: the choice
# never changes the order (see Order), only the occupancy at small batch.
SPLIT_BELOW = 264

# Order-shaping fields and where in the spec each came from; the verifier
# reports counterexamples against these spec lines.
ORDER_FIELDS = ("lanes", "chunk", "num_chunks")


@dataclass(frozen=True)
class Order:
    """The combine order of every output element, as the plan fixes it.

    For output row r and each reduction: the reduce axis is cut into
    `num_chunks` chunks of `chunk` elements at absolute offsets 0, chunk,
    2*chunk, ...; inside a chunk lane j (of `lanes`) combines elements
    c0+j, c0+j+lanes, ... sequentially; the lanes are combined by the
    explicit pairwise tree `tree`; chunk partials are combined left to right
    starting from the combiner's identity, in `acc`.
    """

    lanes: SExpr
    chunk: SExpr
    num_chunks: SExpr
    tree: str  # "pairwise": level k combines lanes (2j, 2j+1) of level k-1
    chunk_combine: str  # "left_to_right"
    acc: str
    combiners: tuple[str, ...]
    stages: int
    split_kind: str  # fixed_size | fixed_count | none
    atomic: bool  # partials combined with atomics (never, on the targets we have)
    provenance: tuple[tuple[str, Loc | None], ...]  # field -> spec location

    def where(self, field: str) -> Loc | None:
        return dict(self.provenance).get(field)


@dataclass(frozen=True)
class Kernel:
    """One kernel shape. Its tile and warps never reach the order (Order.tree is explicit)."""

    name: str  # rows: tile [BLOCK_M, lanes] when K == 1; cols: tile [lanes, BLOCK_K]
    when: str  # python condition over M, N, K choosing this shape
    block: int  # BLOCK_M (rows) or BLOCK_K (cols)
    programs: SExpr  # batch programs
    num_warps: int


@dataclass(frozen=True)
class Plan:
    op: ir.Op
    target: str
    order: Order
    kernels: tuple[Kernel, ...]
    split_below: int
    finish_block: int
    copy_rule: str  # when the launcher copies the input

    @property
    def symbols(self) -> dict[str, str]:
        """What each shape symbol means, for messages and certificates."""
        op = self.op
        out = {op.reduce_axis: "the reduce length"}
        if op.before:
            out[op.before] = "the batch rows before the reduce axis"
        if op.after:
            out[op.after] = "the columns after the reduce axis"
        out["cores"] = "the core budget of the device"
        return out

    @property
    def batch_symbols(self) -> tuple[str, ...]:
        return tuple(a for a in (self.op.before, self.op.after) if a)


def _order(op: ir.Op) -> Order:
    s = op.schedule
    n = sym.Sym(op.reduce_axis)
    lanes = s.tile(op.reduce_axis, DEFAULT_LANES)
    split = s.split
    if split is None:
        # No split: one chunk covering the whole axis (max(1, N) so that N == 0 works).
        chunk, kind = sym.smax(sym.const(1), n), "none"
    elif split.kind == "fixed_size":
        chunk, kind = split.value, "fixed_size"
    else:
        count = sym.smax(sym.const(1), split.value)
        chunk, kind = sym.smax(sym.const(1), sym.cdiv(n, count)), "fixed_count"
    where = split.loc if split else None
    return Order(
        lanes=lanes, chunk=chunk, num_chunks=sym.cdiv(n, chunk), tree="pairwise",
        chunk_combine="left_to_right", acc=op.acc,
        combiners=tuple(r.combiner for r in op.reductions), stages=op.stages,
        split_kind=kind, atomic=False,
        provenance=(("lanes", s.loc(f"tile:{op.reduce_axis}")), ("chunk", where), ("num_chunks", where)),
    )


def plan_cuda(op: ir.Op) -> Plan:
    s = op.schedule
    m = sym.Sym(op.before) if op.before else sym.const(1)
    k = sym.Sym(op.after) if op.after else sym.const(1)
    warps = s.warps or DEFAULT_WARPS
    block_m = s.tile(op.before, 1).eval({}) if op.before else 1
    block_k = s.tile(op.after, DEFAULT_BLOCK_K).eval({}) if op.after else 1
    kernels = [Kernel("rows", "K == 1", block_m, sym.cdiv(m, sym.const(block_m)), warps)]
    if op.after:
        kernels.append(Kernel("cols", "K > 1", block_k, sym.mul(m, sym.cdiv(k, sym.const(block_k))), warps))
    return Plan(
        op=op, target="cuda", order=_order(op), kernels=tuple(kernels), split_below=SPLIT_BELOW,
        finish_block=FINISH_BLOCK,
        copy_rule="the launcher moves the reduced dims next to each other with a permute (a view) and "
                  "copies only when a group of merged dims has strides that no single stride can express",
    )


PLANNERS = {"cuda": plan_cuda}
