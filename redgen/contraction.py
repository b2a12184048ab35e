"""Contractions: plan, order record and proof (stage 3 and 4 for `sum(a * b)` over K).

The order of one output element c[m, n] of a contraction is fixed by (`Order`):
- the K tile BLOCK_K and the order of the K tiles: 0, BLOCK_K, 2*BLOCK_K, ... left to
  right, each tile's products summed into the f32 accumulator by one `tl.dot`;
- the instruction: `tl.dot` with an fp32 accumulator; f16/bf16 inputs on the tensor
  cores, f32 inputs with `input_precision="ieee"` (never TF32);
- the accumulator dtype (f32);
- the split of K: none (one chunk), or fixed_size S (chunks of S elements at absolute
  offsets 0, S, 2S, ..., each summed from zero, the chunk partials added left to right
  to a zero total in f32); a fixed_count computed from M or the cores is refused with a
  counterexample, by the reductions' prover (verify._refute, counterexample.py).

What only picks which program computes which tile (`Regime`: BLOCK_M, BLOCK_N, GROUP_M,
warps, stages, the persistent grid) is declared not order-shaping per target only as far
as a GPU run measured it (MEASURED_FREE, docs/matmul.md): a plan whose regimes differ in
a parameter that was not measured free is refused, naming two M and the two values.
"""

from __future__ import annotations

from dataclasses import dataclass

from redgen import __version__, ir, sym, targets
from redgen.errors import BadSplit, BadTile, NotInvariant, TargetLimit
from redgen.sym import SExpr
from redgen.verify.certificate import BOUND, Certificate, spec_path, text
from redgen.verify.proof import _refute

DEFAULT_BLOCK_K = 64
DEFAULT_GROUP_M = 8

# Regime parameters a GPU run measured not to change a single bit of the output
# (docs/matmul.md, benchmarks/matmul_bench.py "config sweep"): for every dtype, K,
# and every alternative value listed there, c[m, n] was bitwise equal to the
# reference regime's. A parameter absent here must be equal in every regime.
_H100 = "NVIDIA H100 80GB HBM3, triton 3.6 (docs/matmul.md)"
_H200 = "NVIDIA H200, triton 3.6 (docs/gpu_2026_11_28)"
MEASURED_FREE: dict[str, dict[str, str]] = {
    "cuda": {
        "block_m": f"BLOCK_M 16/32/64/128/256 (mma.sync and wgmma alike) gave equal bits on an {_H100}, "
                   f"and 16-26 configurations at 128 shapes on an {_H200} (runs 132, 137)",
        "block_n": f"BLOCK_N 16/32/64/128/256 gave equal bits on an {_H100}, 16-256 on an {_H200}",
        "warps": f"num_warps 4/8 gave equal bits on an {_H100}, 2/4/8 on an {_H200}",
        "stages": f"num_stages 2-5 gave equal bits on an {_H100}, 3-9 on an {_H200}",
        "group_m": f"GROUP_M 1/8 gave equal bits on an {_H100} and an {_H200}; it reorders tiles, never a "
                   f"tile's K loop",
    },
    # No NPU to measure on: the ascend plan has one regime, so nothing needs to be free.
    "ascend": {},
}


@dataclass(frozen=True)
class Regime:
    """One kernel configuration of the class of M <= max_m (None: every larger M); the
    launcher's `_regime` chooses within a class (see the tables below)."""

    max_m: int | None
    block_m: int
    block_n: int
    group_m: int
    warps: int
    stages: int


@dataclass(frozen=True)
class Order:
    """What shapes the bits of c[m, n]; field names `lanes`/`chunk`/`num_chunks` are shared
    with the reductions' Order so that their counterexample search applies unchanged."""

    lanes: SExpr  # BLOCK_K: the K tile
    chunk: SExpr  # K elements per chunk (K itself when not split)
    num_chunks: SExpr
    k_order: str  # "left_to_right": tiles at k0 = 0, BLOCK_K, ... in order
    instruction: tuple[tuple[str, str], ...]  # dtype -> the tl.dot form
    acc: str
    split_kind: str  # none | fixed_size | fixed_count
    chunk_combine: str
    fixed: tuple[tuple[str, int], ...]  # regime parameters not measured free: one value for every M
    provenance: tuple[tuple[str, object], ...]

    def where(self, field: str):
        return dict(self.provenance).get(field)


@dataclass(frozen=True)
class ContractionPlan:
    op: ir.Contraction
    target: str
    order: Order
    regimes: tuple[tuple[str, tuple[Regime, ...]], ...]  # input dtype -> its regimes, by M
    cores: int | None  # ascend: AI (cube) cores, the grid cap; cuda: None (the SM count, queried)
    interpret_programs: int  # persistent programs under TRITON_INTERPRET=1 (CPU)
    fill: float  # a class's first regime whose tiles reach this share of the programs is taken

    @property
    def symbols(self) -> dict[str, str]:
        op = self.op
        out = {op.k: "the contracted length"}
        if op.batch:
            out[op.batch] = "the batch of matrices"
        out[op.m] = "the rows of the output (the batch of tokens)"
        out[op.n] = "the columns of the output"
        out["cores"] = "the core budget of the device"
        return out

    @property
    def batch_symbols(self) -> tuple[str, ...]:
        return tuple(a for a in (self.op.batch, self.op.m, self.op.n) if a)


INSTRUCTIONS = {
    "cuda": {
        "f32": 'tl.dot(a, b, acc, input_precision="ieee"): IEEE f32 FMA, never TF32',
        "bf16": "tl.dot(a, b, acc): tensor-core MMA (mma.sync or wgmma), bf16 products, fp32 accumulator",
        "f16": "tl.dot(a, b, acc): tensor-core MMA (mma.sync or wgmma), f16 products, fp32 accumulator",
    },
    "ascend": {
        "f32": 'tl.dot(a, b, acc, input_precision="ieee") on the cube unit, fp32 accumulator',
        "bf16": "tl.dot(a, b, acc) on the cube unit, bf16 products, fp32 accumulator",
        "f16": "tl.dot(a, b, acc) on the cube unit, f16 products, fp32 accumulator",
    },
}

# Configurations per input dtype, in classes by M (the regimes sharing one max_m). Within a
# class the launcher takes the first whose output tiles reach TILES_FILL of the persistent
# programs (the SMs) and whose BLOCK_N does not pass N's power of two (a bmm of many short
# matrices fills the SMs with any tile), else the class's last (the most tiles): few rows on
# many columns get wide tiles that stream the weight once; on few columns, narrower ones that
# keep every SM busy. Run 132 (H200, bf16, 72 points of (K, N) x M x both weight layouts)
# chose it: this rule is at 0.991 of each point's best of 16 configurations (geomean; the
# M-only table that was here 0.770), e.g. M = 128 on N = 128256 0.63 -> 0.29 ms (64x64 tiles
# read the weight twice). Where the tiles cannot fill the SMs (N of 1024-4096 at M <= 256), a
# program must keep more of the weight in flight: those regimes take 6-9 stages (run 137:
# 14336 x 4096 at M = 8 51.8 -> 35.0 us, at M = 128 69.0 -> 48.4). f32's tl.dot is IEEE FMAs,
# bound by its arithmetic, not by the weight's reads: it keeps its old tiles (32x32 to M = 32,
# 64x32 to 64, 64x64) but where runs 133-134 measured wider ones faster in both weight layouts
# (M <= 16: 1.10-1.54x; 128x128 where it fills). Every value here was measured not order-
# shaping (MEASURED_FREE); docs/matmul.md has the timings. Ascend: one configuration.
TILES_FILL = 0.75
_CUDA_HALF = (
    Regime(1, 16, 128, 1, 4, 4),
    Regime(1, 16, 64, 1, 4, 7),
    Regime(16, 16, 128, 1, 4, 4),
    Regime(16, 16, 64, 1, 4, 5),
    Regime(16, 16, 32, 1, 4, 9),
    Regime(32, 64, 256, 8, 8, 3),
    Regime(32, 64, 128, 8, 4, 4),
    Regime(32, 32, 32, 1, 4, 7),
    Regime(64, 64, 256, 8, 8, 3),
    Regime(64, 64, 128, 8, 4, 4),
    Regime(64, 64, 64, 8, 4, 6),
    Regime(64, 64, 32, 1, 4, 6),
    Regime(None, 128, 256, 8, 8, 3),
    Regime(None, 128, 128, 8, 4, 4),
    Regime(None, 64, 256, 8, 8, 3),
    Regime(None, 128, 64, 8, 4, 6),
    Regime(None, 64, 128, 8, 4, 4),
    Regime(None, 64, 64, 8, 4, 6),
    Regime(None, 64, 32, 1, 4, 6),
)
_CUDA_F32 = (
    Regime(1, 16, 128, 1, 4, 4),
    Regime(1, 16, 64, 1, 4, 5),
    Regime(16, 16, 128, 1, 4, 4),
    Regime(16, 16, 64, 1, 4, 5),
    Regime(16, 16, 32, 1, 4, 5),
    Regime(32, 32, 32, 1, 4, 4),
    Regime(64, 64, 32, 1, 4, 4),
    Regime(None, 128, 128, 8, 8, 3),
    Regime(None, 64, 64, 8, 4, 3),
    Regime(None, 64, 32, 1, 4, 4),
)
CUDA_REGIMES = {"bf16": _CUDA_HALF, "f16": _CUDA_HALF, "f32": _CUDA_F32}
_ASCEND_ONE = (Regime(None, 128, 128, 8, 4, 1),)
ASCEND_REGIMES = {"bf16": _ASCEND_ONE, "f16": _ASCEND_ONE, "f32": _ASCEND_ONE}
INTERPRET_PROGRAMS = 4


def _order(op: ir.Contraction, regimes: tuple[tuple[str, tuple[Regime, ...]], ...], target: str) -> Order:
    s = op.schedule
    k = sym.Sym(op.k)
    block_k = s.tile(op.k, DEFAULT_BLOCK_K)
    split = s.split
    if split is None:
        chunk, kind = sym.smax(sym.const(1), k), "none"
    elif split.kind == "fixed_size":
        chunk, kind = split.value, "fixed_size"
    else:
        count = sym.smax(sym.const(1), split.value)
        chunk, kind = sym.smax(sym.const(1), sym.cdiv(k, count)), "fixed_count"
    free = MEASURED_FREE[target]
    fixed = tuple((f"{d}:{f}", getattr(rs[-1], f)) for d, rs in regimes
                  for f in ("block_m", "block_n", "warps", "stages", "group_m") if f not in free)
    where = split.loc if split else s.loc("split")
    return Order(
        lanes=block_k, chunk=chunk, num_chunks=sym.cdiv(k, chunk), k_order="left_to_right",
        instruction=tuple((d, INSTRUCTIONS[target][d]) for d in op.dtypes), acc=op.acc, split_kind=kind,
        chunk_combine="left_to_right from a zero f32 total" if kind != "none" else "none (one chunk)",
        fixed=fixed,
        provenance=(("lanes", s.loc(f"tile:{op.k}")), ("chunk", where), ("num_chunks", where),
                    ("regimes", op.sum_loc)),
    )


def _regimes(op: ir.Contraction, table: dict[str, tuple[Regime, ...]]) -> tuple[tuple[str, tuple[Regime, ...]], ...]:
    """The target's table for the spec's dtypes. A spec's `tile M / N` or `warps` replaces
    the class of the largest M of every dtype by one regime (then it is the spec's choice,
    checked like any)."""
    s = op.schedule
    tiles = dict(s.tiles)
    out = []
    for d in op.dtypes:
        base = table[d]
        if op.m in tiles or op.n in tiles or s.warps is not None:
            top = [r for r in base if r.max_m is None]
            first = top[0]
            bm = tiles[op.m].eval({}) if op.m in tiles else first.block_m
            bn = tiles[op.n].eval({}) if op.n in tiles else first.block_n
            base = (*base[:-len(top)], Regime(None, bm, bn, first.group_m, s.warps or first.warps, first.stages))
        out.append((d, base))
    return tuple(out)


def plan_contraction(op: ir.Contraction, target: str) -> ContractionPlan:
    s = op.schedule
    if target == "cuda":
        regimes = _regimes(op, CUDA_REGIMES)
        cores = None
    else:
        regimes = _regimes(op, ASCEND_REGIMES)
        explicit = s.loc("cores") is not None
        t = targets.ASCEND  # the cube (AI) cores, where tl.dot runs
        cores = s.cores if explicit else t.cube_cores
        if cores is not None and cores > t.max_cube_cores:
            raise TargetLimit(
                f"ascend: cores {cores} exceeds the {t.max_cube_cores} AI (cube) cores of the largest Atlas "
                f"A2; a contraction's tl.dot runs on the cube cores, and a larger grid only queues programs "
                f"(use cores <= {t.max_cube_cores} or cores auto)", s.loc("cores"), op.source)
    return ContractionPlan(op=op, target=target, order=_order(op, regimes, target), regimes=regimes,
                           cores=cores, interpret_programs=INTERPRET_PROGRAMS, fill=TILES_FILL)


# --- the proof ---------------------------------------------------------------------


def _regime_counterexample(plan: ContractionPlan, field: str) -> NotInvariant | None:
    for _, regimes in plan.regimes:
        values = [getattr(r, field) for r in regimes]
        if len(set(values)) > 1:
            break
    else:
        return None
    i = next(j for j, v in enumerate(values) if v != values[0])
    m = plan.op.m
    first, other = regimes[0], regimes[i]
    if other.max_m == first.max_m:
        # Two regimes of one class: the columns pick between them (the tiles they make).
        n = plan.op.n
        which = (f"{m}=1, {n} large (tiles reach {plan.fill:g} of the programs at {first.block_m}x"
                 f"{first.block_n}): {field}={values[0]}; {m}=1, {n} small: {field}={values[i]}")
    else:
        which = f"{m}=1: {field}={values[0]}; {m}={(regimes[i - 1].max_m or 0) + 1}: {field}={values[i]}"
    return NotInvariant(
        f"the order of {plan.op.output.name}[{', '.join(a.lower() for a in plan.op.output.axes)}] depends on "
        f"{m} and {plan.op.n}: {field} is not measured free on {plan.target} (docs/matmul.md) but changes "
        f"with them: {which}; use one {field} for every regime", plan.order.where("regimes"), plan.op.source)


def _classes(m: str, regimes: tuple[Regime, ...]) -> list[str]:
    """`M <= 16: 16x128 | 16x64` per class of regimes, in the table's order."""
    out: list[tuple[int | None, list[str]]] = []
    for r in regimes:
        if not out or out[-1][0] != r.max_m:
            out.append((r.max_m, []))
        out[-1][1].append(f"{r.block_m}x{r.block_n}")
    return [f"{m} <= {mx}: {' | '.join(t)}" if mx else f"larger: {' | '.join(t)}" for mx, t in out]


def prove_contraction(plan: ContractionPlan) -> Certificate:
    """Prove `plan` batch invariant, or raise NotInvariant with a counterexample."""
    from redgen.verify.counterexample import find_counterexample

    op, o = plan.op, plan.order
    forbidden = {*plan.batch_symbols, "cores"}
    by_z3 = []
    for name in ("lanes", "chunk", "num_chunks"):
        expr = getattr(o, name)
        bad = expr.free() & forbidden
        if not bad:
            continue
        verdict = _refute(expr, keep={op.k}, vary=bad)
        if verdict is None:
            by_z3.append((name, expr))
            continue
        found = find_counterexample(plan, name, expr, bad, verdict)
        # A contraction takes no fixed_count at all (see below): say fixed_size alone.
        raise NotInvariant(found.message.replace(" or a constant fixed_count", ", a multiple of the K tile"),
                           found.loc, found.source)
    if not o.lanes.is_const():
        raise BadTile(f"the K tile must be a constant power of two, got {o.lanes}", o.where("lanes"), op.source)
    block_k = o.lanes.eval({})
    if block_k < 16:
        raise BadTile(f"tile {op.k} = {block_k}: tl.dot needs a K tile of at least 16", o.where("lanes"),
                      op.source)
    for field in ("block_m", "block_n", "warps", "stages", "group_m"):
        if field not in MEASURED_FREE[plan.target]:
            bad = _regime_counterexample(plan, field)
            if bad is not None:
                raise bad
    for r in (r for _, rs in plan.regimes for r in rs):
        if r.block_m < 16 or r.block_n < 16:
            raise BadTile(f"tiles {op.m} = {r.block_m}, {op.n} = {r.block_n}: tl.dot needs at least 16",
                          o.where("regimes"), op.source)
    pin = dict.fromkeys(forbidden, 1)
    from redgen.verify.certificate import substitute

    chunk = substitute(o.chunk, pin)
    if o.split_kind == "fixed_size":
        if not chunk.is_const() or chunk.eval({}) % block_k:
            raise BadSplit(f"the split size {text(chunk)} must be a constant multiple of the K tile {block_k} "
                           f"(chunks start on tile boundaries)", o.where("chunk"), op.source)
        chunk_words = (f"chunks of {chunk.eval({})} at absolute offsets 0, {chunk.eval({})}, ..., each summed "
                       f"from zero, the partials added left to right to a zero f32 total")
    elif o.split_kind == "fixed_count":
        raise BadSplit(f"fixed_count {text(substitute(op.schedule.split.value, pin))}: a contraction's chunks "
                       f"must start on K-tile boundaries at absolute offsets: use fixed_size (a multiple of "
                       f"{block_k})", o.where("chunk"), op.source)
    else:
        chunk_words = "one chunk (no split)"
    out = f"{op.output.name}[{', '.join(a.lower() for a in op.output.axes)}]"
    independent = tuple(plan.batch_symbols) + ("cores",)
    statement = (f"order of {out}: {op.k} in tiles of {block_k} at k0 = 0, {block_k}, ... left to right, "
                 f"each tile's products added to the f32 accumulator by one tl.dot; {chunk_words}; "
                 f"independent of {', '.join(independent)}")
    if by_z3:
        method = (f"z3 refutation for {', '.join(f'{n} = {text(e)}' for n, e in by_z3)} (sizes 1..2^"
                  f"{BOUND.bit_length() - 1}); the rest free-symbol analysis")
    else:
        method = f"free-symbol analysis: the K tile and the split are expressions over {op.k} alone"
    method += ("; regime parameters: equal across regimes unless measured free on the target "
               "(MEASURED_FREE, docs/matmul.md)")
    free = MEASURED_FREE[plan.target]
    every = [r for _, rs in plan.regimes for r in rs]
    regimes = "; ".join(f"{d}: " + ", ".join(_classes(op.m, rs)) for d, rs in plan.regimes)
    notes = tuple(
        f"{f}: {free[f]}" for f in ("block_m", "block_n", "warps", "stages", "group_m")
        if f in free and len({getattr(r, f) for r in every}) > 1
    ) + (
        f"regimes (BLOCK_M x BLOCK_N in classes by {op.m}, in a class the first whose tiles reach "
        f"{plan.fill:g} of the programs and whose BLOCK_N does not pass {op.n}'s power of two, else the "
        f"last; {regimes}); parameters not measured free are the same in every regime: "
        f"{', '.join(f'{k}={v}' for k, v in o.fixed) or 'none'}",
        "the persistent grid (min(tiles, " + targets.get(plan.target).dot_units
        + ") programs looping over tiles): it picks which program computes a tile, never a tile's K loop",
        "masked rows/columns beyond M and N: rows and columns of a tl.dot are computed independently",
        "every launch passes enable_fp_fusion=False (the epilogue's a*b+c is never contracted to an FMA)",
    )
    order = {
        "block_k": block_k, "k_order": o.k_order, "chunk": str(o.chunk), "num_chunks": str(o.num_chunks),
        "split": o.split_kind, "chunk_combine": o.chunk_combine, "acc": o.acc,
        "instruction": dict(o.instruction), "fixed": dict(o.fixed),
    }
    return Certificate(
        op=op.name, target=plan.target, spec=spec_path(op.path), spec_sha256=op.digest, redgen=__version__,
        order=order, depends_on=(op.k,), independent_of=independent, method=method,
        not_order_shaping=notes, statement=statement,
    )
