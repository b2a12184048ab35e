"""Prove an attention plan batch invariant and prefill/decode consistent, or refuse it with a counterexample.

The claim, for every output row (sequence b, query i, head h): its floating-point
order is a function of its visible length L alone (L = S, the sequence's key length;
with the causal mask L = min(S, S - T + i + 1), T the sequence's query length) and of
compile-time constants. Not of the number of sequences, other sequences' lengths, the
core budget, nor of T and S beyond L: so a token at position p gets the same bits in a
prefill of the whole prompt (T = S = n, i = p) and as the decode step at p (T = 1,
S = p + 1, i = 0), both of which have L = p + 1.

How: each order-shaping value of the plan (AttentionOrder: block_m, block_n, chunk,
num_chunks) is a sym expression. Free-symbol analysis settles it when the value reads
L alone. Otherwise readable pairs of shapes with the same L are tried (prefill vs
decode, batch 1 vs 2, cores 40 vs 132, ...), then z3 is asked for two shapes with the
same L and different values; unsat proves the value a function of L, a model is a
counterexample. Reuses verify.py's Certificate, BOUND and text().
"""

from __future__ import annotations

from redgen import __version__, sym
from redgen.attention import BATCH, NO_SPLIT, ORDER_FIELDS, POS, ROW, AttentionPlan
from redgen.errors import BadSplit, BadTile, NotInvariant
from redgen.verify.certificate import BOUND, Certificate, spec_path, text
from redgen.verify.proof import exp_trust

_FIELD_WORDS = {"block_m": "the query tile", "block_n": "the key block", "chunk": "the chunk length",
                "num_chunks": "the number of chunks"}


def _env_symbols(plan: AttentionPlan) -> tuple[str, ...]:
    op = plan.op
    return (op.kv_axis, op.query_axis, POS, BATCH, "cores")


def _full(plan: AttentionPlan, env: dict[str, int]) -> dict[str, int]:
    """`env` with L computed from S, T and i."""
    out = dict(env)
    out[ROW] = plan.order.visible.eval({**env, POS: env.get(POS, 0)})
    return out


def _value(expr: sym.SExpr, env: dict[str, int]):
    try:
        return expr.eval(env)
    except (ZeroDivisionError, KeyError):
        return None


def describe(plan: AttentionPlan, env: dict[str, int]) -> str:
    """The order of a row at one shape, in words: 'L=1000: 4 chunks of 256, blocks of 64'."""
    o = plan.order
    full = _full(plan, env)
    try:
        chunk, n, bn = o.chunk.eval(full), o.num_chunks.eval(full), o.block_n.eval(full)
    except ZeroDivisionError:
        return "a division by zero"
    chunks = "one chunk" if n == 1 else f"{n} chunks of {chunk}"
    return f"{chunks}, key blocks of {bn}"


def _shape_words(plan: AttentionPlan, env: dict[str, int]) -> str:
    op = plan.op
    return (f"{BATCH}={env[BATCH]}, cores={env['cores']}, {op.kv_axis}={env[op.kv_axis]}, "
            f"{op.query_axis}={env[op.query_axis]}, i={env[POS]}")


def _candidates(plan: AttentionPlan, reads: frozenset[str]):
    """Readable pairs of shapes whose rows see the same number of keys (L = 1000), those that vary
    a symbol the value reads first: the batch, the core budget, then prefill vs decode."""
    op = plan.op
    s, t = op.kv_axis, op.query_axis

    def shape(kv: int, q: int, i: int, batch: int = 1, cores: int = 40) -> dict[str, int]:
        return {s: kv, t: q, POS: i, BATCH: batch, "cores": cores}

    decode = shape(1000, 1, 0)
    pairs = [(BATCH, (decode, shape(1000, 1, 0, batch=b))) for b in (2, 3, 64)]
    pairs += [("cores", (decode, shape(1000, 1, 0, cores=c))) for c in (132, 20, 24)]
    if op.causal:
        pairs.append((s, (shape(4096, 4096, 999), decode)))  # the token at position 999: prefill vs decode
        pairs.append((t, (shape(1000, 16, 15), decode)))  # the last of a chunk of 16 queries vs decode
    else:
        pairs.append((t, (decode, shape(1000, 4096, 0))))
    pairs.sort(key=lambda p: p[0] not in reads)
    for _, (a, b) in pairs:
        assert _full(plan, a)[ROW] == _full(plan, b)[ROW], (a, b)  # the claim compares rows of equal L
        yield a, b


def _refute(plan: AttentionPlan, expr: sym.SExpr):
    """z3: two shapes with the same L and different values of `expr`, None (proven) or 'unknown'."""
    import z3

    names = _env_symbols(plan)
    sides = [{n: z3.Int(f"{n}_{k}") for n in names} for k in (1, 2)]
    solver = z3.Solver()
    solver.set("timeout", 5000)
    lens = []
    for env in sides:
        for v in env.values():
            solver.add(v <= BOUND)
        for n in names:
            solver.add(env[n] >= (0 if n == POS else 1))
        solver.add(env[POS] < env[plan.op.query_axis])
        length = plan.order.visible.z3(env)
        solver.add(length >= 1)
        lens.append(length)
    solver.add(lens[0] == lens[1])
    vals = [expr.z3({**env, ROW: length}) for env, length in zip(sides, lens, strict=True)]
    solver.add(vals[0] != vals[1])
    verdict = solver.check()
    if verdict == z3.unsat:
        return None
    if verdict == z3.sat:
        m = solver.model()
        return tuple({n: m.eval(env[n], model_completion=True).as_long() for n in names} for env in sides)
    return "unknown"


def _counterexample(plan: AttentionPlan, field: str, expr: sym.SExpr, pair) -> NotInvariant:
    op = plan.op
    split = op.schedule.split
    src = split.value if (field in ("chunk", "num_chunks") and split is not None) else expr
    what = (("the split count" if split.kind == "fixed_count" else "the split size")
            if field in ("chunk", "num_chunks") and split is not None else _FIELD_WORDS[field])
    loc = plan.order.where(field)
    fix = (f"use 'split {op.kv_axis} fixed_size <constant>': chunks at absolute key positions depend on a "
           f"row's visible length alone" if field in ("chunk", "num_chunks")
           else f"make tile {op.query_axis if field == 'block_m' else op.kv_axis} a constant power of two")
    bad = sorted((expr.free() | (src.free() if isinstance(src, sym.SExpr) else frozenset())) - {ROW})
    if pair is None or pair == "unknown":
        return NotInvariant(f"the order of {op.out}[t, h, d] may depend on {', '.join(bad)}: {what} "
                            f"'{text(src)}' reads them and the solver could not rule it out; {fix}", loc, op.source)
    a, b = pair
    la = _full(plan, a)[ROW]
    changed = [n for n in _env_symbols(plan) if a[n] != b[n]]

    def shape(env: dict[str, int]) -> str:
        return ", ".join(f"{n}={env[n]}" for n in changed)

    derived = f" (chunks of {text(expr)})" if field in ("chunk", "num_chunks") and src is not expr else ""
    reads = sorted(src.free()) if isinstance(src, sym.SExpr) and src.free() else bad
    return NotInvariant(
        f"the order of {op.out}[t, h, d] depends on more than the row's visible length L: {what} '{text(src)}'"
        f"{derived} reads {', '.join(reads)}; two rows that both see L={la} keys: {shape(a)}: {describe(plan, a)}; "
        f"{shape(b)}: {describe(plan, b)}; {fix}", loc, op.source)


def prove_attention(plan: AttentionPlan) -> Certificate:
    """Certificate of `plan`, or NotInvariant with two shapes whose rows see as many keys but differ."""
    o = plan.order
    op = plan.op
    by_z3 = []
    for field in ORDER_FIELDS:
        expr = getattr(o, field)
        if expr.free() <= {ROW}:
            continue
        pair = next(((a, b) for a, b in _candidates(plan, expr.free())
                     if _value(expr, _full(plan, a)) != _value(expr, _full(plan, b))), None)
        if pair is None:
            pair = _refute(plan, expr)
            if pair is None:
                by_z3.append((field, expr))
                continue
        raise _counterexample(plan, field, expr, pair)
    for field, kind in (("block_m", BadTile), ("block_n", BadTile), ("chunk", BadSplit)):
        if not getattr(o, field).is_const():
            raise kind(f"{_FIELD_WORDS[field]} '{text(getattr(o, field))}' is a function of the row's visible "
                       f"length (invariant), but the attention kernels take a constant: use a constant "
                       f"{'tile' if kind is BadTile else 'fixed_size'}", o.where(field), op.source)
    bm, bn, chunk = (getattr(o, f).eval({}) for f in ("block_m", "block_n", "chunk"))
    sk, tq = op.kv_axis, op.query_axis
    length = f"L = min({sk}, {sk} - {tq} + i + 1)" if op.causal else f"L = {sk}"
    if by_z3:
        method = (f"z3 refutation: for {', '.join(f'{f} = {text(e)}' for f, e in by_z3)}, no two rows with the "
                  f"same L give different values (sizes 1..2^{BOUND.bit_length() - 1}); the other order-shaping "
                  f"values are expressions over L alone")
    else:
        method = ("free-symbol analysis: every order-shaping value (query tile, key block, chunk, number of "
                  "chunks) is an expression over the row's visible length L alone")
    chunks = ("one chunk (no split)" if chunk == NO_SPLIT else
              f"chunks of {chunk} keys at absolute positions 0, {chunk}, {2 * chunk}, ... (cdiv(L, {chunk}) of "
              f"them), combined into the running state left to right")
    mask = (f"causal: query i of a sequence with {op.query_axis} queries and {op.kv_axis} keys sees keys "
            f"j <= {op.kv_axis} - {op.query_axis} + i" if op.causal else "no mask: every row sees all its keys")
    statement = (
        f"order of {op.out}[t, h, d] (sequence b, query i, head h): {length} ({mask}); keys 0..L-1 in blocks "
        f"of {bn} at absolute positions 0, {bn}, ...; per block the scores are one tl.dot "
        f"[{bm}, D] x [D, {bn}] over the head dim, scaled, masked by the row's own L, and one online-softmax "
        f"update (max, scaled sum, weighted accumulator; p @ v one tl.dot [{bm}, {bn}] x [{bn}, D] into the "
        f"accumulator) in {o.acc}; {chunks}; then out = acc / sum; a function of L alone: independent of "
        f"{BATCH}, other sequences, cores, and of {op.kv_axis}, {op.query_axis}, i beyond L, so a prefill row "
        f"at position p and the decode step at p (both L = p + 1) get the same bits"
    )
    kinds = ", ".join(k.name for k in plan.kernels)
    not_shaping = (
        f"kernels ({kinds}): the same chunk code (tile [{bm}, D], block {bn}, {o.num_warps} warps, "
        f"{plan.num_stages} stages, enable_fp_fusion=False) and the same left-to-right chunk combine from the "
        f"same identity state; the split path stores each chunk's state in f32 and combines it in a second pass",
        "which rows share a tile (queries x heads of one KV head, BLOCK_M rows): each row's scores and "
        "updates are its own row of the tl.dot, masked by its own L; blocks and chunks past a row's L that "
        "its tile still visits are exact no-ops for it (alpha = exp(0) = 1, p = 0, sum + 0, acc + 0)",
        "GQA: the KV head a query head reads (h // (H / G)) picks data, not the order",
        f"the grid (tiles from the longest sequence, {BATCH} x KV heads, chunks from the longest key length) "
        f"and the core budget: they only pick which program computes a row",
    )
    order = {
        "visible_length": length, "block_m": bm, "block_n": bn, "chunk": chunk if chunk != NO_SPLIT else "none",
        "num_chunks": str(o.num_chunks), "num_warps": o.num_warps, "num_stages": plan.num_stages,
        "acc": o.acc, "causal": op.causal, "split": o.split_kind, "chunk_combine": "left_to_right",
        "combiner": "online softmax (max, scaled sum, weighted acc)", "fp_fusion": False,
    }
    return Certificate(
        op=op.name, target=plan.target, spec=spec_path(op.path), spec_sha256=op.digest,
        redgen=__version__, order=order, depends_on=(ROW,),
        independent_of=(BATCH, "other sequences' lengths", "cores", op.query_axis, op.kv_axis, "i"),
        method=method, not_order_shaping=not_shaping, statement=statement, trusted=(exp_trust(plan.target),),
    )
