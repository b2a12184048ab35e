"""Stage 4: Plan -> Certificate, or a NotInvariant error with a counterexample.

What is proven: for every output element, the floating-point combine order
is fixed by `plan.order` -- lanes, chunk length, number of chunks (symbolic),
the explicit pairwise lane tree, left-to-right chunk combine and the
accumulator dtype. Kernel shapes, blocks, warps, grids and the fused/split
choice are not order-shaping: rows are reduced independently, the lane tree
is written out (not left to the layout-dependent tl.sum), and both paths run
the same per-chunk code and the same chunk combine sequence.

How: each order-shaping expression must be a function of the reduce length
alone. Free-symbol analysis settles most plans at once; an expression that
mentions a batch size or the core budget is handed to z3, which either
proves it constant in those symbols (the refutation "two assignments with the
same reduce length and different values" is unsatisfiable) or yields a model,
turned into a readable counterexample by `counterexample.py`. Once the order
is proven independent of the batch, z3 also checks that a chunk holds at
least one element at every reduce length. docs/verifier.md has the details,
including what this proof trusts and does not cover.
"""

from __future__ import annotations

from redgen import __version__, combiners, sym, targets
from redgen.errors import BadSplit, BadTile, NotInvariant
from redgen.plan import (
    ALIGN_MAX,
    COLS_STEP_NARROW_UNROLL,
    COLS_STEP_WIDE_BLOCK,
    ORDER_FIELDS,
    SPLIT_BELOW_ONCE,
    Plan,
    direct_kind,
    gather_refs,
)
from redgen.verify.certificate import (
    BOUND,
    BOUND_TEXT,
    Certificate,
    invariant_symbols,
    mapped_note,
    outputs_text,
    spec_path,
    substitute,
    text,
)


def prove_merged_walk(outer: str, inner: str) -> str:
    """`reduce N1, N2 as N`: z3 proves that position n = n1*N2 + n2 of the merged axis is read
    at (n // N2, n % N2) = (n1, n2), and that every n < N1*N2 lands inside both axes: the walk
    is a bijection, so the order over n is one fixed order over the (n1, n2) elements. Sizes
    as the launcher admits them (N = N1*N2 <= 2^31 - 1, N2 >= 1); n >= 0, so floor and
    truncating division agree. Returns the method text, or raises NotInvariant."""
    import z3

    n1_, n2_, a, b, n = z3.Ints("N1 N2 n1 n2 n")
    bounds = [n1_ >= 1, n2_ >= 1, n1_ * n2_ <= 2**31 - 1]
    for claim in (
        z3.Implies(z3.And(0 <= a, a < n1_, 0 <= b, b < n2_),
                   z3.And((a * n2_ + b) / n2_ == a, (a * n2_ + b) % n2_ == b, a * n2_ + b < n1_ * n2_)),
        z3.Implies(z3.And(0 <= n, n < n1_ * n2_), z3.And(0 <= n / n2_, n / n2_ < n1_, 0 <= n % n2_, n % n2_ < n2_)),
    ):
        solver = z3.Solver()
        solver.set("timeout", 10000)
        solver.add(*bounds, z3.Not(claim))
        if solver.check() != z3.unsat:
            raise NotInvariant(f"could not prove the walk of the merged reduce axes {outer}, {inner} a bijection",
                               None, None)
    return (f"z3: position n = {outer.lower()}*{inner} + {inner.lower()} of the merged axis is read at "
            f"(n // {inner}, n % {inner}), and every n < {outer}*{inner} inside both axes (a bijection; "
            f"{outer}*{inner} < 2^31)")


def _refute(expr: sym.SExpr, keep: set[str], vary: set[str]):
    """z3: a model with equal `keep` symbols, different `vary` symbols and different values, or None."""
    import z3

    names = sorted(expr.free())
    a = {n: z3.Int(f"{n}_1") for n in names}
    b = {n: (a[n] if n in keep else z3.Int(f"{n}_2")) for n in names}
    solver = z3.Solver()
    solver.set("timeout", 5000)
    for v in {*a.values(), *b.values()}:
        solver.add(v >= 1, v <= BOUND)
    solver.add(expr.z3(a) != expr.z3(b))
    verdict = solver.check()
    if verdict == z3.unsat:
        return None
    if verdict == z3.sat:
        model = solver.model()
        env1 = {n: model.eval(a[n], model_completion=True).as_long() for n in names}
        env2 = {n: model.eval(b[n], model_completion=True).as_long() for n in names}
        return env1, env2
    return "unknown"


def _check_divisors(plan: Plan) -> None:
    """No divisor of a launcher expression is zero at any shape: the launcher would raise
    ZeroDivisionError there, and z3 (whose x / 0 is unconstrained) must never reason about it."""
    import z3

    for name in ORDER_FIELDS:
        expr = getattr(plan.order, name)
        for d in sym.divisors(expr):
            if d.is_const():
                continue  # a constant zero divisor is refused by the checker (E107)
            names = sorted(d.free())
            env = {n: z3.Int(n) for n in names}
            solver = z3.Solver()
            solver.set("timeout", 5000)
            for v in env.values():
                solver.add(v >= 1, v <= BOUND)
            solver.add(d.z3(env) == 0)
            verdict = solver.check()
            if verdict == z3.unsat:
                continue
            example = ""
            if verdict == z3.sat:
                model = solver.model()
                at = {n: model.eval(env[n], model_completion=True).as_long() for n in names}
                example = " (it is 0 at " + ", ".join(f"{n}={v}" for n, v in at.items()) + ")"
            raise BadSplit(f"the divisor {text(d)} in {name} = {text(expr)} can be 0 for sizes in "
                           f"{BOUND_TEXT}{example}: the launcher would divide by zero", plan.order.where(name),
                           plan.op.source)


def _check_chunk(plan: Plan, chunk: sym.SExpr) -> None:
    """A chunk must hold at least one element at every reduce length (else the split divides by zero)."""
    import z3

    axis = plan.op.reduce_axis
    names = sorted(chunk.free())
    env = {n: z3.Int(n) for n in names}
    solver = z3.Solver()
    solver.set("timeout", 5000)
    for v in env.values():
        solver.add(v >= 1, v <= BOUND)
    solver.add(chunk.z3(env) < 1)
    if solver.check() == z3.unsat:
        return
    example = ""
    if solver.check() == z3.sat:
        model = solver.model()
        at = {n: model.eval(env[n], model_completion=True).as_long() for n in names}
        shown = ", ".join(f"{n}={v}" for n, v in at.items())
        example = f" (at {shown} it is {chunk.eval(at)})" if shown else f" (it is {chunk.eval(at)})"
    raise BadSplit(f"the chunk length {text(chunk)} must be at least 1 for every {axis} in {BOUND_TEXT}{example}",
                   plan.order.where("chunk"), plan.op.source)


def exp_trust(target: str) -> str:
    """What exp is in `target`'s kernels, as a certificate trusts it."""
    return f"exp is one function of its argument in every kernel (_rg_exp): {targets.get(target).exp_impl}"


def trusted(target: str) -> tuple[str, ...]:
    """The compiler facts a certificate for `target` rests on (docs/verifier.md, "Trusted")."""
    return (
        f"no FMA contraction: every kernel launch passes enable_fp_fusion=False ({targets.get(target).fusion_trust})",
        "the compiler keeps the written order of every combine (no reassociation) and compiles the same "
        "element expression to the same instructions in every kernel variant (division, sqrt, exp and log "
        "may be approximate, but alike on every path and batch size)",
        exp_trust(target),
        f"sizes in {BOUND_TEXT} for the z3 refutation (free-symbol analysis has no bound)",
    )


def _split_rule(plan: Plan) -> str:
    """When the cuda launcher takes the split path, in the certificate's words (plan.py)."""
    if plan.split_below == 0 and plan.direct:
        return "the fused path at every batch size; no reduction walks a chunk, each is direct"
    if plan.split_below >= SPLIT_BELOW_ONCE:
        return "split wherever a row has several chunks and the split grid holds the batch programs"
    return f"split below {plan.split_below} batch programs per chunk after a row's first"


def _direct_rule(plan: Plan) -> str:
    """Why the direct chunk partials (plan.Plan.direct) are the walk's, in the certificate's words."""
    op = plan.op
    rs = [op.reduction(n) for n in plan.direct]
    said = [("{}[{}]".format(*gather_refs(r)) if direct_kind(op, r) == "gather" else r.name) for r in rs]
    return (f"the chunk partials of {', '.join(said)}, each computed from a load or two a row instead of "
            f"a walk of the chunk (plan.Plan.direct): a gather x[t] (max over where(position == t, x, -inf)) "
            f"is the element at t where the chunk holds t, else -inf, the one element the walk and lane tree "
            f"select (max(-inf, a) = a); an idempotent combine (max, min) of a value that does not vary along "
            f"the reduce axis is that value (combine(a, a) = a; a NaN stays one): the partial the chunk's walk "
            f"gives, bit for bit, whatever the batch; the chunk combine left to right as before"
            + ("; where no reduction of a stage walks its chunks, the kernels that walk a row's chunks "
               "(cuda's fused ones, ascend's) take one chunk spanning the row [0, N) at once: the combine of "
               "such chunk partials left to right is that chunk's partial (max(-inf, a) = a, max(a, a) = a), "
               "and an empty row, which has no chunk, keeps the identity"
               if any(all(r.name in plan.direct for r in op.reductions if r.stage == s) for s in range(op.stages))
               else ""))


def prove(plan: Plan) -> Certificate:
    """Prove `plan` batch invariant, or raise NotInvariant with a counterexample."""
    from redgen.verify.counterexample import find_counterexample

    if getattr(plan, "attention", False):  # --- attention (redgen/verify/attention_proof.py) ---
        from redgen.verify.attention_proof import prove_attention

        return prove_attention(plan)
    o = plan.order
    reduce_axis = plan.op.reduce_axis
    independent = invariant_symbols(plan)
    forbidden = set(independent)
    _check_divisors(plan)
    by_z3 = []  # (field, expression) the solver had to settle
    for name in ORDER_FIELDS:
        expr = getattr(o, name)
        bad = expr.free() & forbidden
        if not bad:
            continue
        verdict = _refute(expr, keep={reduce_axis}, vary=bad)
        if verdict is None:
            by_z3.append((name, expr))
            continue
        raise find_counterexample(plan, name, expr, bad, verdict)
    if by_z3:
        method = (f"z3 refutation: for {', '.join(f'{n} = {text(e)}' for n, e in by_z3)}, no two shapes with "
                  f"the same {reduce_axis} give different values (sizes {BOUND_TEXT}); "
                  f"the other order-shaping values are expressions over {reduce_axis} alone")
    else:
        method = f"free-symbol analysis: every order-shaping value is an expression over {reduce_axis} alone"
    if plan.op.reduce_axes:
        method += "; " + prove_merged_walk(*plan.op.reduce_axes)
    if not o.lanes.is_const():
        loc = o.where("lanes")
        raise BadTile(f"the reduce tile must be a constant power of two, got {o.lanes}", loc, plan.op.source)
    if o.atomic:
        raise NotInvariant("partials are combined with atomics: their order depends on scheduling",
                           o.where("chunk"), plan.op.source)
    unknown = [c for c in o.combiners if c not in combiners.COMBINERS or combiners.get(c).kind not in combiners.KINDS]
    if unknown:
        raise NotInvariant(f"combiner {unknown[0]!r} has no known combine rule: its order cannot be certified",
                           o.where("chunk"), plan.op.source)
    # Combiners beyond one value: their combine rule is stated (value-only certificates stay short).
    arg = sorted({c for c in o.combiners if combiners.get(c).kind != "value"})
    # Proven independent of the batch symbols and cores: pin them (to 1) for a readable statement.
    pin = dict.fromkeys(independent, 1)
    chunk = substitute(o.chunk, pin)
    _check_chunk(plan, chunk)
    lanes = o.lanes.eval({})
    outs = outputs_text(plan)
    if o.split_kind == "fixed_size":
        offsets = (f"0, {chunk.value}, {2 * chunk.value}" if isinstance(chunk, sym.Const)
                   else f"0, {text(chunk)}, 2*({text(chunk)})")
        where = ("the element's offset alone" if isinstance(chunk, sym.Const)
                 else f"the element's offset and {reduce_axis}")
        chunk_words = (f"chunks of {text(chunk)} at absolute offsets {offsets}, ... combined left to right "
                       f"(chunk boundaries depend on {where})")
    elif o.split_kind == "fixed_count":
        count = substitute(sym.smax(sym.const(1), plan.op.schedule.split.value), pin)
        many = "one chunk" if count == sym.const(1) else f"up to {text(count)} chunks"
        chunk_words = (f"{many} of {text(chunk)} combined left to right: batch invariant, "
                       f"but the chunk boundaries move with {reduce_axis}, unlike fixed_size")
    else:
        chunk_words = f"one chunk of {reduce_axis} elements"
    ra = plan.op.reduce_axes
    merged = (f"{reduce_axis} = {'*'.join(ra)} merged positions, ({', '.join(ra)}) at "
              f"n = {ra[0].lower()}*{ra[1]} + {ra[1].lower()}; " if ra else "")
    # Order-free combiners (a total pair order) meet in tl.reduce's tree on cuda: its shape
    # follows the layout, and every tree selects the same pair.
    free = [c for c in dict.fromkeys(o.combiners) if c in plan.free_trees]
    # Commutative combiners whose pairwise tree cuda writes in two forms (Plan.pair_trees),
    # those of the spec's reductions and of their combiners' own trees (softmax_stats' sum).
    pairs = [c for c in combiners.used(o.combiners) if combiners.get(c).commutative] if plan.pair_trees else []
    free_words = f"{', '.join(free)}'s pair order is total: every tree selects the same pair" if free else ""
    all_free = bool(free) and len(free) == len(set(o.combiners))
    if all_free:
        tree_words = f"the {lanes} lanes meet in tl.reduce's tree, whose shape follows the layout ({free_words})"
    else:
        tree_words = f"the {lanes} lanes meet in a pairwise tree" + (
            f" ({', '.join(free)}: in tl.reduce's tree, whose shape follows the layout; {free_words})" if free else "")
    statement = merged + (
        f"order of {outs}: {reduce_axis} in tiles of {lanes}, {chunk_words}; inside a chunk lane j combines "
        f"elements j, j+{lanes}, ... in order, {tree_words}, in {o.acc}; "
        f"independent of {', '.join(independent)}"
    ) + "".join(f"; {c} combines {combiners.get(c).rule}" for c in arg) + "".join(
        f"; {c}: {combiners.get(c).group_rule}" for c in plan.order_groups)
    short = plan.op.schedule.short
    if short is not None:
        # The other op's order is its own certificate's; which op computes a row compares the
        # reduce length with a constant, so it is a function of the reduce length alone.
        statement = (f"{reduce_axis} <= {short.bound}: op {short.op}'s order (its own certificate; spec sha256 "
                     f"{short.digest[:16]}); {reduce_axis} > {short.bound}: the " + statement)
        method += (f"; op {short.op} or this op: {reduce_axis} <= {short.bound}, a comparison of "
                   f"{reduce_axis} with a constant")
    batch = ", ".join(plan.batch_symbols) or "none"
    kinds = ", ".join(sorted(k.name for k in plan.kernels))
    order = {
        "lanes": lanes, "chunk": str(o.chunk), "num_chunks": str(o.num_chunks), "tree": "tl.reduce" if all_free else o.tree,
        "chunk_combine": o.chunk_combine, "acc": o.acc, "combiners": list(o.combiners),
        "stages": o.stages, "split": o.split_kind, "atomic": o.atomic,
    }
    if free and not all_free:
        order["free_trees"] = free
    if plan.order_groups:  # (kept out of the other certificates, which stay as they were)
        order["groups"] = {c: plan.unroll for c in plan.order_groups}
    if short is not None:
        order["short"] = {"max": short.bound, "op": short.op, "spec_sha256": short.digest}
    if arg:  # (kept out of value-only certificates, which stay as they were)
        order["combine_rules"] = {c: combiners.get(c).rule for c in arg}
        order["combiner_kinds"] = {c: combiners.get(c).kind for c in arg}
    return Certificate(
        op=plan.op.name, target=plan.target, spec=spec_path(plan.op.path), spec_sha256=plan.op.digest,
        redgen=__version__, order=order, depends_on=(reduce_axis,), independent_of=independent,
        method=method,
        not_order_shaping=(
            *((f"the walk of the reduce axes {', '.join(ra)}: {plan.copy_rule}; the merged position and "
               f"so the order are the same",) if ra else ()),
            f"kernel shapes ({kinds}), their blocks and num_warps: the lane tree is explicit"
            + (f" ({', '.join(free)}: any tree selects the same pair)" if free else ""),
            f"fused vs split path ({_split_rule(plan)}): same chunk code, same left-to-right chunk combine",
            *((f"the row kernel (rows of at most {plan.row_tiles} tiles of {lanes} held on chip, read once, "
               + (f"on grids of at most {plan.row_rows} rows of 32-bit elements, {plan.row_half_rows} of 16-bit "
                  f"ones (ROW_ROWS, ROW_HALF_ROWS; widened to the same float32, a bfloat16 by a shift of its bits, "
                  f"a float16 by cvt.f32.f16), the chunked walks elsewhere" if plan.row_rows else
                  "for every batch size")
               + "): the fused kernel's tiles, combines, lane trees and chunk combine in "
               "the same sequence, on values loaded up front; a tile wholly inside the row and its chunk "
               "combines its elements unmasked (the mask holds there for every row that is stored); the "
               "empirical check's forced paths run with it off and are compared with it; a tile held as "
               "loaded (RAW, 16-bit inputs of long rows; PACK: two a 32-bit word, split back in place by "
               "tl.join, a reshape and a bitcast to the input's dtype) is widened to the same float32 values "
               "at each use"
               + ("; on the GPU, where such rows are longer than ROW_PREFETCH_MIN elements (and not longer "
                  "than ROW_PREFETCH_MAX) and the grid longer "
                  "than ROW_PREFETCH_AHEAD waves of programs, each program first asks L2 for the rows of the "
                  "program that many waves on (prefetch.global.L2: a cache hint, nothing read back)"
                  if plan.row_prefetch else "")
               + (f"; up to {plan.row_stack} chunks' [BLOCK, LANES] partials stacked as the rows of one tile "
                  f"(tl.join, a permute and reshapes: values moved, never combined) meet their lanes in one "
                  f"call of the same pairwise tree, each row its own lanes, then unstacked in chunk order for "
                  f"the same left-to-right chunk combine" if plan.row_stack > 1 else "")
               + ("; its form across chunks (_k_rows_across, the launcher's choice by the length and the grid): "
                  "tile u holds lanes u * LANES + j of each of the row's chunks as the rows of one tile, in the "
                  "stacked tree's order, so each chunk's lane j combines its elements in the same increasing "
                  "order and the same stacked tree and chunk combine follow; a stacked row past the chunks "
                  "holds nothing and is dropped; the empirical check runs it wherever a row has 2 to "
                  f"{plan.row_stack} chunks, and without it, and compares both" if plan.row_across else ""),)
              if plan.row_tiles else ()),
            *((_direct_rule(plan),) if plan.direct else ()),
            *(f"the chunk walks' combine of {c} in its step form (_{c}_step): {combiners.get(c).step_rule}"
              for c in plan.step_walks),
            *(f"the row kernel's combine of {c} in its lean form (_{c}_lean: LEAN, where the input's "
               f"elements take at most ROW_LEAN_ITEMSIZE bytes and the grid holds more than ROW_FEW_PROGRAMS "
               f"programs): {combiners.get(c).lean_rule}; the empirical check compares the lean form with the "
               f"plain one at every reduce length it runs" for c in plan.row_lean),
            *((f"the form of the pairwise lane tree of {', '.join(pairs)} (PAIRS: each level a two-element "
               f"tl.reduce, or a tl.split gathered into every thread): the same pairs, and the combine is "
               f"commutative bit for bit; the kernels take the tl.reduce form except a rows kernel's fused walk "
               f"over several chunks"
               + (f" and a cols kernel's blocks of {plan.cols_split_tree} columns or more" if plan.cols_split_tree
                  else "")
               + "; the empirical check compares the fused and split paths",)
              if pairs else ()),
            *((f"tiles loaded {plan.unroll} at a time by the chunk walks (UNROLL"
               + (f"; the cols kernels' {plan.cols_unroll}, COLS_UNROLL" if plan.cols_unroll else "")
               + (f", {COLS_STEP_NARROW_UNROLL} at blocks of fewer than {COLS_STEP_WIDE_BLOCK} columns, "
                  "COLS_STEP_NARROW_UNROLL" if plan.cols_step else "")
               + ("; ROWS_TAIL_UNROLL in the rows walks of 16-bit rows of several chunks whose last chunk's "
                  "tiles past its groups of UNROLL, each walked alone, would outnumber a group of it, where a spec "
                  "tunes it"
                  if plan.rows_tail else "")
               + "): groups of tiles that all "
               "start inside the chunk, then the rest one by one; every tile once, in increasing order, the "
               "same operations (the empirical check's forced paths load one at a time and are compared)"
               + (f"; but for the groups of {', '.join(plan.order_groups)}, which the order states: UNROLL "
                  f"(and COLS_UNROLL) is fixed at {plan.unroll} by the module there, and the forced paths keep it"
                  if plan.order_groups else "")
               + ("; a group that ends inside the chunk combines its elements unmasked, where no index "
                  "combiner reduces" + (" or, in the rows walks alone, where each that does folds its groups"
                                        if any(combiners.get(c).order_free for c in plan.group_walk) else "")
                  + " (the mask holds there for every row that is stored)"
                  if plan.unmasked_stages else ""),)
              if plan.unroll else ()),
            *(f"the rows walks' UNROLL groups of {c} (group_walk): {combiners.get(c).group_rule}; the empirical "
              f"check's forced paths (groups of one tile) are compared with the natural call"
              for c in plan.group_walk if c not in plan.order_groups),
            *((f"a walk (the cols kernels', and the rows kernel's or, where the op has one, the row kernel's) of a "
               f"row of at most {lanes // 2} elements (SHORT_TILE_MAX) in TILE lanes, the power of two holding the row, "
               f"not {lanes}, with more rows or columns a program: each chunk is then one tile of either walk, "
               f"lane j holding its element j or none; a lane at or past TILE holds none, only the identity "
               f"combined with the masked identity, and the {lanes}-lane tree meets the root of lanes 0..TILE-1 "
               f"with a subtree of such lanes a level, the root on the left, which the kernel folds in, each "
               f"subtree combined from two of the level below: the same combines in the same order (every "
               f"combiner here meets its lanes in the pairwise tree of its combine, or is order-free); the "
               f"empirical check compares the natural call at every length up to SHORT_TILE_MAX and every K with "
               f"the same call walking {lanes} lanes (its long_tile form), as its forced paths do",) if plan.short_tile else ()),
            *((f"the cols kernels' walk of a row of at most {lanes} elements one lane a column (TILE 1, FREE_COLS_BLOCK "
               f"columns a program, FREE_COLS_SMALL_BLOCK below FREE_COLS_SMALL) where the view holds FREE_COLS_MIN columns or more "
               f"(FREE_COLS_FLAT_MIN at a short row and K), FREE_COLS_K or more a batch row, "
               f"and of a longer row of one chunk in FREE_COLS_LONG_TILE lanes (FREE_COLS_LONG_BLOCK columns) where it "
               f"holds FREE_COLS_LONG_MIN columns or more, FREE_COLS_LONG_K a batch row: every combiner here is "
               f"order-free (a total order on the states: any walk and any tree select the same one); the "
               f"empirical check compares the natural call at every length and every K > 1 with the same call "
               f"taking these walks whatever the columns (its free_cols form)",) if plan.free_cols else ()),
            *(("the cols kernels' own walk (one lane a column) taking its columns in their flat order m * K + k, "
               "across batch rows, where K is shorter than COLS_FLAT_BELOW and the walk's block (FLAT): which "
               "program computes a column; the empirical check's forms of that walk take it at K 3 and a block "
               "cut to K at K 5",) if plan.free_cols or plan.cols_stack else ()),
            *(("the cols kernels' walk of a row of at most COLS_STACK_N elements (one chunk) one lane a column "
               "(STACK, COLS_STACK_BLOCK columns a program, COLS_STACK_SMALL_BLOCK below COLS_STACK_SMALL) where the view holds COLS_STACK_MIN columns or more "
               "(taken in SPLIT runs, their roots met by the tree's levels above them, below COLS_STACK_SPLIT_COLS; "
               "a row longer than COLS_STACK_ONE_RUN_N in one run only from COLS_STACK_SPLIT_COLS; a row longer "
               "than LANES where the input's elements take COLS_STACK_DEEP_ITEMSIZE bytes or more, or fewer on "
               "COLS_STACK_DEEP_NARROW_MIN columns or more, in groups of COLS_STACK_DEEP_LEAVES; "
               "COLS_STACK_DEEP_BLOCK_BYTES of a row a program, in runs up to COLS_STACK_DEEP_PROGRAMS programs, "
               "there and at those narrower elements on COLS_STACK_DEEP_NARROW_MIN columns whatever the row), "
               "COLS_STACK_K or more a batch row: "
               "leaf j is lane j of the TILE walk, its elements j, j + TILE, ... below N (DEPTH of them) each or "
               "none combined in increasing order into the identity, as that lane combines its tiles, and the "
               "TILE-lane tree is built leaf by leaf, leaf j meeting the stacked roots its trailing one bits "
               "name, each on the left: pairs (2j, 2j+1) at every level, the same combines in the same order, "
               "then the same levels above TILE; leaves taken STACK a loop iteration (COLS_STACK_LEAVES, "
               "COLS_STACK_WIDE_LEAVES or COLS_STACK_FLAT_LEAVES at longer rows on more columns, from a TILE of COLS_STACK_GROUP_TILE) climb the group's stack by the bits of their place in the group, "
               "the group's root the loop's by the group's number: the same climb; the empirical check "
               "compares the natural call at every length and every K > 1 with the same call taking this walk "
               "whatever the columns (its cols_stack form)",) if plan.cols_stack else ()),
            "index width (WIDE: int64 index arithmetic where the launcher's sizes could pass 2**31 - 1, "
            "else int32) and grids cut in slices of 2**31 - 1 programs: integer offsets only, the same "
            "floating-point operations in the same order",
            *((f"the launcher's ALIGN (the largest power of two, at most {ALIGN_MAX}, dividing the lengths and "
               "strides a kernel multiplies an index by) and the kernels' rebinding of each as x // ALIGN * ALIGN: the "
               "same integers, of which the compiler then knows more (which loads are vectors); no "
               "floating-point operation changes",) if plan.align_hint else ()),
            *mapped_note(plan),
            f"batch axes ({batch}) and the core budget: they only pick which program reduces a row",
        ) if plan.notes is None else (
            *((f"the walk of the reduce axes {', '.join(ra)}: {plan.copy_rule.split(': ')[0]}; the merged "
               f"position and so the order are the same",) if ra else ()),
            *plan.notes,
            *((_direct_rule(plan),) if plan.direct else ()),
            *mapped_note(plan),
            f"batch axes ({batch}) and the core budget: they only pick which program reduces a row",
        ),
        statement=statement,
        trusted=trusted(plan.target),
    )
