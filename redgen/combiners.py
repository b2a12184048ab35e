"""The combiners of the language, as data: one record per combiner.

A combiner folds the elements of a row into a *state* of one or more components
(sum: one value; argmax: a (value, index) pair; softmax_stats: the (max, scaled sum)
pair of online softmax). Everything the pipeline needs to know about one lives in
its record here, and nowhere else:

- check.py: the name, how many names the statement binds (`results`), whether the
  result is an index (only assigned to an i64 output) or a value;
- plan.py: the Unified Buffer bytes its state and combine temporaries take (ascend);
- verify.py: how the verifier classifies it and what one combine does (`rule`);
- emit.py / the templates: the state components (dtype, identity, how an element is
  lifted into a state), the Triton combine function's body, written out here in one
  fixed sequence of operations. The templates format these; they never branch on a
  combiner's name;
- reference.py: its float64 meaning (`reference`), independent of the order.

The order in which states are combined (lanes, the pairwise lane tree, chunks left to
right) is the same for every combiner and is the plan's (plan.Order); a combiner only
says what one combine computes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The identity of an index component: the emitter writes the target's largest index there
# (cuda: int64 where the launcher chose WIDE, else int32; ascend: int32).
INDEX_MAX = "INDEX_MAX"
NEG_INF = 'float("-inf")'
POS_INF = 'float("inf")'


@dataclass(frozen=True)
class Component:
    """One component of a combiner's state.

    suffix: names the generated variables (`r_0_<suffix>acc`, `_part`, `_tot`);
    dtype: "f32" or "index"; identity: the Triton literal every accumulator starts from
    (and a masked element becomes); lift: how one element becomes this component, with
    `{v}` the element's value and `{n}` its position along the reduce axis.
    """

    suffix: str
    dtype: str  # "f32", or "index": a position along the reduce axis, in the target's index type
    identity: str  # for an index component INDEX_MAX: the target's largest index (above every position)
    lift: str


@dataclass(frozen=True)
class Combiner:
    name: str
    state: tuple[Component, ...]
    # Which state components the statement's names bind, in order (`s = sum(x)` binds
    # component 0; `i = argmax(x)` the index, 1; `(m, s) = softmax_stats(x)` both).
    results: tuple[int, ...]
    index: bool  # the result is an index into the reduce axis: an i64 output, never a value
    # torch gives no value over an empty reduce axis (amax/amin/argmax raise): an output
    # that is this reduction makes the launcher raise when the axis is empty.
    empty_raises: bool
    # The body of `_<name>(a0, .., b0, ..)`: (a) combined with (b), returning the new
    # state. One fixed sequence of operations; the templates print it as it is.
    body: tuple[str, ...]
    doc: tuple[str, ...]  # comment lines above the body, saying why it is written so
    kind: str  # how the verifier classifies it: "value", "index", "scaled_pair" or "moments"
    rule: str  # what one combine does, in the certificate's words
    # Ascend Unified Buffer bytes per tile element beyond one f32 accumulator and the
    # one shared temporary plan.ub_usage counts for every reduction: the other state
    # components, their masked lifts and the combine's own temporaries.
    ub_extra: int
    # The float64 meaning over a [B, N, A] tensor reduced along dim 1 (keepdim):
    # one tensor per result. `v` is the element values.
    reference: Callable[[Any], tuple[Any, ...]]  # torch tensors (torch imported only when used)
    extreme: str = ""  # an index combiner: the value whose index it gives ("maximum"), for docstrings
    # The lane tree `_tree_<name>(v0, .., ROWS, LANES, LOG2_LANES)`: empty, the pairwise tree of
    # `body` (level i combines lanes (2j, 2j+1)); else these body lines, which may call the
    # trees of the combiners named in `tree_uses` (emitted with it). The lane tree runs once
    # per chunk on a tile Triton replicates in every thread, so an expensive combine there
    # costs LANES combines per thread: softmax_stats rescales instead.
    tree: tuple[str, ...] = ()
    tree_uses: tuple[str, ...] = ()
    # cuda's row kernel: the longest row (elements) it holds on chip for a spec using this
    # combiner, where that is shorter than plan.ROW_MAX (a combine whose arithmetic per element
    # outweighs the second read it saves at longer rows); 0: plan.ROW_MAX.
    row_max: int = 0
    # combine(a, b) and combine(b, a) have the same bits for every pair of states, so a pair
    # of lanes may meet with either operand first: cuda's pairwise tree may then run each
    # level as a two-element tl.reduce (pair_tree), the same pairs in warp shuffles.
    commutative: bool = False
    # The same combine written with fewer special-function instructions (`_<name>_lean`), for
    # a kernel whose time goes to them: () none. It computes `body`'s function bit for bit over
    # the states a kernel forms (`lean_rule` says why, in the certificate's words). cuda's row
    # kernel takes it for 16-bit inputs on grids that are not short (plan.Plan.row_lean).
    lean_body: tuple[str, ...] = ()
    lean_rule: str = ""
    # cuda's rows walks may fold a lane's UNROLL group of elements into one state and combine that
    # once (plan.Plan.group_walk; `group_rule`, the certificate's words): `group` the extreme of two
    # values, `{a}`, `{b}` (NaN propagating), folded over the group's values `{gv}[u]` into `{gm}`,
    # the state's component 0; `group_state` the lines that then compute its component 1 into `{g}`
    # (`{w}`, `{lv}`: the walk's tile width and lane positions; `{identity}`, `{dtype}`: component
    # 1's). "" none: each element is combined.
    group: str = ""
    group_state: tuple[str, ...] = ()
    # Or component 1 as a sum over the group's elements: (its start, one element `{v}` added to
    # `{g}`, the end), which the cols kernels' walks compute from a second load of the group's
    # tiles, one [LANES, BLOCK_K] tile in registers at a time (the form run 165 timed), the rows
    # walks over the held values. A combiner whose fold is not exact needs it: its cols kernels
    # must fold the same groups.
    group_sum: tuple[str, str, str] = ()
    group_rule: str = ""
    group_doc: tuple[str, ...] = ()  # the comment above the fold
    # An index combiner's fold of a group's pair into its lane's state (`_<name>_walk`): the lane
    # sees increasing positions, so a strict comparison (the better value, or a first NaN) keeps what
    # `body` keeps, with fewer instructions (those walks are bound by their ALU pipe: H200, run 230).
    # It differs from `body` at one state alone: a lane whose elements so far are all the identity
    # value keeps the identity's index, where `body` takes the first of them; `walk_fix` (`{v}`, `{g}`:
    # the value and index states, `{vid}` the value's identity, `{lv}` the lanes' positions) then gives
    # a lane whose value is the identity after its chunk walk its first position in the chunk, c0 + j:
    # every element it holds is the identity value. () none: `body` folds.
    walk_body: tuple[str, ...] = ()
    walk_fix: str = ""
    # The fold gives the bits of combining the group's elements one by one (an index combiner's
    # total pair order): UNROLL then does not shape the order, and the rows walks alone fold.
    # False: the groups are part of the order (the certificate's statement), UNROLL is frozen, the
    # cols kernels' walks fold them too, and the fold is taken only where no row kernel holds the
    # row (plan.plan_cuda), whose combine of every element the empirical check's forced walks must
    # reproduce bit for bit.
    group_exact: bool = True
    # combine(a, a) is a for every state a (max, min: NaN propagating, a NaN stays one): a reduction of
    # this combiner over an expression that does not vary along the reduce axis gives each chunk
    # that expression (the direct partials, plan.Plan.direct).
    idempotent: bool = False
    # The combine of a state with one element where the walk knows every lane's count of elements
    # (`k`: one f32 value for the tile, not a [BLOCK, LANES] one): `_<name>_step(a0, .., v, k)`, `v`
    # the element's value. It computes the body's function of the state and the element's lift bit
    # for bit; what depends on the count alone (Welford's weight, a division) is computed once for
    # the tile instead of once for each lane. cuda's chunk walks take it for their whole groups,
    # whose tiles are all inside the chunk (plan.Plan.step_walks; `step_rule`, the certificate's
    # words). () none.
    step_body: tuple[str, ...] = ()
    step_rule: str = ""
    # The state component that is the count k itself in every lane of those groups (>= 0), which
    # `_<name>_step` then neither takes nor returns (its body reads `k`): the walk holds it as its one
    # f32 value, not a [BLOCK, LANES] tensor a tile adds 1.0 to, and sets the lanes' component from it
    # after the groups (0.0 + k: k, k >= 0). -1: the step carries every component.
    step_count: int = -1

    @property
    def arity(self) -> int:
        """How many names the reduce statement binds."""
        return len(self.results)

    @property
    def order_free(self) -> bool:
        """Every combine order gives the same result: an index combiner's pair order is total
        (indices are distinct), so a combine selects the lesser pair, exactly. Its lanes may
        meet in any tree (plan.Plan.free_trees)."""
        return self.kind == "index"

    def pair_tree(self) -> tuple[str, ...]:
        """cuda's pairwise lane tree of a commutative single-value combiner, in two forms with
        the same pairs (2j, 2j + 1) and so the same bits. PAIRS: each level one two-element
        tl.reduce (warp shuffles). Else the tl.split form, for which Triton gathers each
        level's tile into every thread: more work, but fewer registers in a long chunk walk
        (the fused kernel keeps it where a row has several chunks, and the cols kernels, where
        the shuffles of a transposed tile add instructions; plan.Plan.pair_trees)."""
        return ("if PAIRS:",
                "    for i in tl.static_range(LOG2_LANES):",
                f"        v0 = tl.reduce(tl.reshape(v0, [ROWS, LANES >> (i + 1), 2]), 2, _{self.name})",
                "else:",
                "    for i in tl.static_range(LOG2_LANES):",
                "        a0, b0 = tl.split(tl.reshape(v0, [ROWS, LANES >> (i + 1), 2]))",
                f"        v0 = _{self.name}(a0, b0)",
                "return tl.reshape(v0, [ROWS])")

    def free_tree(self) -> tuple[str, ...]:
        """The lane tree body of an order-free combiner: tl.reduce's tree (warp shuffles). The
        written-out pairwise tree is a layout Triton replicates in every thread, which then
        redoes most of its LANES - 1 combines: for argmax twice the work of the walk itself."""
        vals = ", ".join(f"v{j}" for j in range(len(self.state)))
        return (f"return tl.reduce(({vals}), 1, _{self.name})",)


def _softmax_stats_ref(v):
    import torch

    # m = max (NaN propagates, -inf over nothing); s = the sum of exp(x - m) over the
    # elements that are not -inf: their term is 0 (its limit) even when m is -inf too,
    # so a row of -inf (or an empty one) has s = 0 where the two-pass formula gives nan.
    m = (v.amax(dim=1, keepdim=True) if v.shape[1]
         else torch.full((v.shape[0], 1, v.shape[2]), float("-inf"), dtype=v.dtype))
    s = torch.where(v == float("-inf"), torch.zeros_like(v), torch.exp(v - m)).sum(dim=1, keepdim=True)
    return m, s


def _value(name: str, identity: str, expr: str, rule: str, ref, empty_raises: bool,
           commutative: bool = False, idempotent: bool = False) -> Combiner:
    return Combiner(
        name=name, state=(Component("", "f32", identity, "{v}"),), results=(0,), index=False,
        empty_raises=empty_raises, body=(f"return {expr}",), doc=(), kind="value", rule=rule,
        ub_extra=0, reference=lambda v: (ref(v),), commutative=commutative, idempotent=idempotent,
    )


def _arg(name: str) -> Combiner:
    larger = name == "argmax"
    word = "maximum" if larger else "minimum"
    return Combiner(
        name=name,
        state=(Component("", "f32", NEG_INF if larger else POS_INF, "{v}"), Component("i", "index", INDEX_MAX, "{n}")),
        results=(1,), index=True, empty_raises=True,
        body=("a_nan = a0 != a0",
              "b_nan = b0 != b0",
              f"win = (b0 {'>' if larger else '<'} a0) | (b_nan & (a0 == a0)) | (((b0 == a0) | (b_nan & a_nan)) "
              "& (b1 < a1))",
              "return tl.where(win, b0, a0), tl.where(win, b1, a1)"),
        doc=(f"(value, index) pairs: b wins when {'larger' if larger else 'smaller'}, when it is NaN and a is "
             "not, or",
             "when they are equal (or both NaN) and b's index is lower: a total order, so the",
             f"result is the first index of the {word} (NaN first) in any combine order."),
        kind="index",
        rule=(f"(value, index) pairs: the {'larger' if larger else 'smaller'} value wins, NaN "
              f"{'above' if larger else 'below'} every number, equal values (and two NaNs) go to the lower "
              f"index; lane j sees increasing indices, so a strict comparison keeps the first; the pair order "
              f"is total, so every combine order gives the first index of the {word}"
              + (", as torch.argmax" if larger else " (or of the first NaN), as torch.argmin")),
        # the index accumulator and the masked index tile (int32 on ascend)
        ub_extra=8,
        reference=(lambda v: (v.argmax(dim=1, keepdim=True),)) if larger
        else (lambda v: (v.argmin(dim=1, keepdim=True),)),
        extreme=word,
        group=f"tl.{word}({{a}}, {{b}}, propagate_nan=tl.PropagateNan.ALL)",
        # the first position of the group holding the extreme or a NaN: scanned from the last tile back
        group_state=("{g} = tl.full({gm}.shape, {identity}, {dtype})",
                     "for u in tl.static_range(UNROLL - 1, -1, -1):",
                     "    n = n0 + u * {w} + {lv}",
                     "    {g} = tl.where(({gv}[u] == {gm}) | ({gv}[u] != {gv}[u]), n[None, :], {g})"),
        group_doc=(f"The group's pair for each lane: its {name} over the group's elements (what combining",
                   "them one by one selects: the pair order is total), then one combine into the lane's state."),
        walk_body=(f"win = (b0 {'>' if larger else '<'} a0) | ((b0 != b0) & (a0 == a0))",
                   "return tl.where(win, b0, a0), tl.where(win, b1, a1)"),
        walk_fix="{g} = tl.where(({v} == {vid}) & (c0 + {lv}[None, :] < c1), c0 + {lv}[None, :], {g})",
        group_rule=(f"a lane's group becomes one (value, index) pair, the group's {word} (NaN propagating) and "
                    f"the first position in the group whose element equals it or is a NaN, which then combines "
                    f"into the lane's state once: the pair that combining the group's elements one by one "
                    f"selects (the pair order is total); that combine is strict (the group's pair replaces the "
                    f"state where its value is {'larger' if larger else 'smaller'}, or a NaN where the "
                    f"state's is not: the lane's positions increase, so a tie keeps the earlier), and a lane "
                    f"whose value after its chunk walk is the identity (each of its elements is) then takes its "
                    f"first position in the chunk, c0 + j, before the lane tree: the state the full combine "
                    f"gives; a masked element (the identity, at a position past "
                    f"the chunk) is picked only where each element of the lane's group is masked or the "
                    f"identity, and then a position of the chunk holding the identity or a better value wins "
                    f"every later combine (a chunk is never empty)"),
    )


SOFTMAX_STATS = Combiner(
    name="softmax_stats",
    state=(Component("", "f32", NEG_INF, "{v}"), Component("s", "f32", "0.0", "1.0")),
    results=(0, 1), index=False, empty_raises=False,
    body=("m = tl.maximum(a0, b0, propagate_nan=tl.PropagateNan.ALL)",
          "ea = tl.where(a0 == float(\"-inf\"), 0.0, _rg_exp(a0 - m))",
          "eb = tl.where(b0 == float(\"-inf\"), 0.0, _rg_exp(b0 - m))",
          "return m, a1 * ea + b1 * eb"),
    doc=("Online softmax: (max, sum of exp(x - max)) pairs. Each sum is rescaled to the new",
         "max; a side whose max is -inf (the identity, or only -inf elements) adds exactly 0",
         "(exp(-inf - -inf) would be nan). NaN propagates through the max and then the sum;",
         "a +inf max gives exp(inf - inf) = nan, as the two-pass sum(exp(x - max)) does."),
    kind="scaled_pair",
    rule=("(max, scaled sum) pairs: m = max(m1, m2) with NaN propagating, s = s1 * e1 + s2 * e2 with "
          "ei = exp(mi - m), or exactly 0 when mi is -inf; the products and the sum are rounded in "
          "that written order (no FMA). Lane j folds its elements in order with this combine; the "
          "lanes meet as: M = the max of the lane maxima (pairwise tree), each lane's sum rescaled to "
          "M (s_j * exp(m_j - M), 0 for a -inf lane), those summed in the pairwise tree; chunk partials "
          "combine left to right with this combine. Every step is fixed by LANES and the chunk length"),
    # the s accumulator, its lift tile, the new max and the two rescale factors
    ub_extra=16,
    reference=_softmax_stats_ref,
    # Rescale every lane to the max over the lanes (exact in any order), then one pairwise sum
    # tree: one exp per lane instead of two per tree node in every thread.
    # ({pairs}: the tree form the kernel chose, forwarded where the target has one; emit.py)
    tree=("m = _tree_max(v0, ROWS, LANES, LOG2_LANES{pairs})",
          "t = tl.where(v0 == float(\"-inf\"), 0.0, v1 * _rg_exp(v0 - tl.reshape(m, [ROWS, 1])))",
          "return m, _tree_sum(t, ROWS, LANES, LOG2_LANES{pairs})"),
    tree_uses=("max", "sum"),
    # On an H100 its row kernel beat the chunked walk up to 4096 elements (4096 x 4096: 66 us
    # against 120 f32, 48 against 106 bf16) and lost at 8192 (187 against 168 f32, 155 against
    # 112 bf16; docs/gpu_2026_11_23/row_kernel.md).
    row_max=4096,
    # One exp a combine instead of two: the side holding the new max is rescaled by exp(0).
    # In the row kernel on 16-bit inputs at 4096 and 16384 rows of 4096 on an H200: softmax
    # 35 -> 27 and 129 -> 94 us, log_softmax 36 -> 25 and 134 -> 88 (bits equal at 66 points);
    # not on short grids, where it lost (log_softmax f32 1 x 4096: 2.75 -> 3.66 us), nor in the
    # chunk walks (logsumexp bf16 16384 x 4096: 54 -> 64 us; docs/gpu_2026_11_26/README.md).
    lean_body=("m = tl.maximum(a0, b0, propagate_nan=tl.PropagateNan.ALL)",
               "lo = tl.minimum(a0, b0, propagate_nan=tl.PropagateNan.ALL)",
               "e = tl.where(lo == float(\"-inf\"), 0.0, _rg_exp(lo - m))",
               "up = b0 > a0",
               "s = tl.where(up, a1, b1) * e + tl.where(up, b1, a1)",
               "return m, tl.where(m == float(\"inf\"), m - m, s)"),
    # A lane's UNROLL group as one state: its max, then the sum of exp(x - max) over the group in
    # order (exactly 0 where the max is -inf: every element -inf or masked), combined once. One exp
    # an element instead of two: on an H200 logsumexp bf16 4096 x 32000 95.5 -> 81.0 us, 1024 x
    # 151936 114.4 -> 97.0, f32 0.91-0.99x, its cols kernels 0.71-1.00x (runs 162 and 165,
    # docs/gpu_2026_11_28/README.md; plan.plan_cuda says where it is taken).
    group="tl.maximum({a}, {b}, propagate_nan=tl.PropagateNan.ALL)",
    # (0.0 + e is e: the first term's bits, and the cols kernels' walk starts its max from -inf)
    group_sum=("0.0", "{g} + _rg_exp({v} - {gm})", "tl.where({gm} == float(\"-inf\"), 0.0, {g})"),
    group_doc=("The group's state for each lane: its max M, then the sum of exp(x - M) over its",
               "elements in order (0 where M is -inf), combined into the lane's state once."),
    group_exact=False,
    group_rule=("in the chunk walks (the rows and the cols kernels') lane j takes its tiles in groups of "
                "UNROLL (8; the cols kernels' COLS_UNROLL, 8 too) consecutive tiles from the "
                "chunk's start, as long as a group's every tile starts inside the chunk, then the rest one by "
                "one: a group becomes one (max, sum) state, M = the max of its elements (NaN propagating, "
                "left to right), S = exp(x_0 - M) + exp(x_1 - M) + ... summed left to right over its "
                "elements, or exactly 0 where M is -inf, which then combines into the lane's state with "
                "this combine; an element past the chunk is -inf and adds exactly 0 where M is finite; a "
                "+inf element makes exp(inf - inf) = NaN, a NaN propagates. UNROLL and the group boundaries "
                "are fixed by the module and the chunk, whatever the batch"),
    lean_rule=("the same combine written with one exp: the side holding the max m is rescaled by "
               "exp(m - m) = exp(0) = 1 exactly (every exp of the module is one function, and that of 0 is "
               "1), so only the other side's exp(lo - m), lo = min(m1, m2), is computed; s * 1 = s and a "
               "sum's two operands commute, so the product and the sum are the body's; a -inf side adds "
               "exactly 0 in both (the first operand is an accumulator, whose -inf max holds a +0 sum); a "
               "+inf max gives NaN in both (exp(inf - inf) there, m - m here); a NaN propagates through lo"),
)

def _welford_ref(v):
    # The mean and the sum of squared deviations from it, over the elements; an empty
    # row's are 0 and 0, the combiner's identity (its count is 0).
    mean = v.mean(dim=1, keepdim=True) if v.shape[1] else v.sum(dim=1, keepdim=True)
    return mean, ((v - mean) ** 2).sum(dim=1, keepdim=True)


# Welford's (mean, m2, count) states, where m2 is the sum of squared deviations from the mean:
# one read gives what var's two passes (the mean, then the deviations) give in two, as torch's
# var and std compute it. The per-element combine takes one division (b's weight in the merged
# mean); the lane tree takes none per node: the count and the weighted means are summed, the
# mean divided once per row, and every lane's m2 moved to it (m2_j + n_j * (mean_j - mean)^2,
# exact in real arithmetic), in sum's pairwise trees.
WELFORD = Combiner(
    name="welford",
    state=(Component("", "f32", "0.0", "{v}"), Component("q", "f32", "0.0", "0.0"),
           Component("c", "f32", "0.0", "1.0")),
    results=(0, 1), index=False, empty_raises=False,
    body=("n = a2 + b2",
          "w = tl.where(n == 0.0, 0.0, b2 / n)",
          "d = b0 - a0",
          "return a0 + d * w, a1 + b1 + d * d * a2 * w, n"),
    doc=("Welford's (mean, m2, count) states, m2 the sum of squared deviations from the mean:",
         "the merged mean moves a's by b's weight count_b / count; m2 gains d^2 * count_a * that",
         "weight, d the difference of the means (Chan et al.'s pairwise update). Two empty",
         "states (count 0) give the empty state. NaN and infinities propagate to NaN, as the",
         "two-pass formula's."),
    kind="moments",
    rule=("(mean, m2, count) states: n = n1 + n2, w = n2 / n (0 when n is 0), d = mean2 - mean1, "
          "mean = mean1 + d * w, m2 = m1_2 + m2_2 + d * d * n1 * w, rounded in that written order (no "
          "FMA); an element is (x, 0, 1). Lane j folds its elements in order with this combine; the lanes "
          "meet as: n = the pairwise-tree sum of the lane counts, mean = the pairwise-tree sum of "
          "count_j * mean_j divided by n (0 when n is 0), m2 = the pairwise-tree sum of "
          "m2_j + count_j * (mean_j - mean)^2; chunk partials combine left to right with this combine. "
          "Every step is fixed by LANES and the chunk length"),
    # the m2 and count accumulators, their lifted tiles and the combine's four temporaries
    ub_extra=32,
    reference=_welford_ref,
    tree=("n = _tree_sum(v2, ROWS, LANES, LOG2_LANES{pairs})",
          "m = tl.where(n == 0.0, 0.0, _tree_sum(v2 * v0, ROWS, LANES, LOG2_LANES{pairs}) / n)",
          "d = v0 - tl.reshape(m, [ROWS, 1])",
          "return m, _tree_sum(v1 + v2 * (d * d), ROWS, LANES, LOG2_LANES{pairs}), n"),
    tree_uses=("sum",),
    # The walk's element combine takes a division for each lane (b's weight 1 / n): on an H200 var's
    # cols kernels ran at 1.29x torch's time (f32) and 1.58x (bf16) at 256 x 40000 x 64 (run 171).
    # The count, the same k in every lane there, is the walk's own: the loop carries no [256, 16] count
    # tile in the cols kernels and adds nothing a lane (their registers are set by the masked tiles'
    # body: plan.py, COLS_STEP_*). H200 run 182: bf16 0.93-0.97x the time, f32 0.93-1.04x.
    step_body=("w = 1.0 / (k + 1.0)",
               "d = v - a0",
               "return a0 + d * w, a1 + 0.0 + d * d * k * w"),
    step_count=2,
    step_rule=("where every lane of a tile holds the same count k of elements (the whole groups of a chunk "
               "walk, from the chunk's start: k tiles combined before, each adding 1.0 to every lane's count, "
               "which the walk's own f32 count k follows by the same additions), an element x combines as "
               "_welford_step: w = 1 / (k + 1) once for the tile, the value the body's w = b2 / n gives each lane "
               "(b2 = 1, n = count + 1 = k + 1 >= 1, so never the n == 0 case); mean = mean1 + d * w, "
               "m2 = m2_1 + 0.0 + d * d * k * w, d = x - mean1: the body's operations on the element's lift "
               "(x, 0, 1), in its order, each lane's count being k; the lanes' counts are set to the walk's k "
               "(0.0 + k) after the whole groups, the value of their own additions of 1.0"),
)

COMBINERS: dict[str, Combiner] = {c.name: c for c in (
    # IEEE addition is commutative bit for bit (signed zeros, infinities and NaN included).
    _value("sum", "0.0", "a0 + b0", "a + b", lambda v: v.sum(dim=1, keepdim=True), False, commutative=True),
    # max/min with NaN propagating compile to PTX max.NaN.f32 / min.NaN.f32, whose result is the
    # same for either operand order: a canonical NaN when either is NaN, +0 (max) or -0 (min) for a
    # pair of zeros of either sign. Measured bit for bit on the GPU over every ordered pair of 17
    # special f32 patterns and 2^20 random pairs, f32 and from bf16/f16 values: H100
    # (docs/gpu_2026_11_25/README.md, run 5) and H200 (docs/gpu_2026_11_26/README.md, run 1).
    _value("max", NEG_INF, "tl.maximum(a0, b0, propagate_nan=tl.PropagateNan.ALL)", "maximum, NaN propagates",
           lambda v: v.amax(dim=1, keepdim=True), True, commutative=True, idempotent=True),
    _value("min", POS_INF, "tl.minimum(a0, b0, propagate_nan=tl.PropagateNan.ALL)", "minimum, NaN propagates",
           lambda v: v.amin(dim=1, keepdim=True), True, commutative=True, idempotent=True),
    _arg("argmax"),
    _arg("argmin"),
    SOFTMAX_STATS,
    WELFORD,
)}

# What the verifier knows how to classify; a combiner of another kind is refused.
KINDS = ("value", "index", "scaled_pair", "moments")


def used(names) -> tuple[str, ...]:
    """The combiners a module defines: those its reductions use and those their lane trees call."""
    out: set[str] = set()
    todo = list(names)
    while todo:
        c = todo.pop()
        if c not in out:
            out.add(c)
            todo.extend(COMBINERS[c].tree_uses)
    return tuple(sorted(out))


def get(name: str) -> Combiner:
    """The record of combiner `name` (the checker has refused unknown names with E104)."""
    return COMBINERS[name]
