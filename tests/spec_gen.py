"""A seeded generator of random well-formed specs, for differential testing.

`spec(seed)` returns the text of a spec that the checker accepts: one to three
reduction stages (sum, max, min, sometimes argmax/argmin), element-wise locals,
reduced and mapped outputs, parameters, a weight input, odd names (names of
Python keywords, builtins and the generated module's own names, other axis
letters) and odd schedules (small tiles, fixed_size and fixed_count splits,
warps, batch tiles). Values are kept well conditioned (no division by a value
near zero, no exp of a sum) so that the float64 reference and the kernels'
float32 meet the per-dtype tolerances: a mismatch is a bug, not rounding.

tests/test_differential.py runs a bounded count in CI; scripts/differential.py a
long run.
"""

from __future__ import annotations

import random

# Odd names a spec may use: Python keywords and builtins, names the generated module
# defines or imports, the emitter's own mangled names.
ODD = ["ok", "dim", "range", "tl", "torch", "_launch", "lambda", "if", "class", "def", "in_0", "p_1", "v_0",
       "out_0", "r_0", "keepdim", "dtype", "triton", "math", "os", "min_", "sum_", "float", "None_", "len",
       "shape", "chunk", "N_", "M", "K", "x3", "s_x", "_run", "LANES", "SPLIT_BELOW", "CERTIFICATE"]
AXES = [("M", "N", "K"), ("B", "L", "C"), ("K", "M", "N"), ("N", "K", "M"), ("rows", "red", "cols"),
        ("dim", "range", "tl"), ("a1", "a2", "a3")]


class _Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.used: set[str] = set()

    def name(self, plain: str) -> str:
        """An unused name: often an odd one, else `plain` with a suffix."""
        for _ in range(20):
            n = self.r.choice(ODD) if self.r.random() < 0.6 else f"{plain}{self.r.randint(0, 99)}"
            if n not in self.used:
                self.used.add(n)
                return n
        n = f"{plain}_{len(self.used)}"
        self.used.add(n)
        return n


def spec(seed: int) -> str:
    g = _Gen(seed)
    r = g.r
    before, red, after = r.choice(AXES)
    layout = r.choice(["bra", "br", "ra", "bra"])
    axes = [a for a, k in zip((before, red, after), "bra", strict=True) if k in layout]
    g.used |= set(axes) | {"cores", "auto"}
    batch = [a for a in axes if a != red]
    x = g.name("x")
    dtypes = r.choice(["f32", "f32 | bf16", "f32 | f16 | bf16", "bf16 | f32"])
    lines = [f"op {'op' + str(seed)}", f"in {x}[{', '.join(axes)}] : {dtypes}"]
    w = None
    if r.random() < 0.4:
        w = g.name("w")
        lines.append(f"in {w}[{red}] : {dtypes}")
    params = []
    for _ in range(r.randint(0, 2)):
        p = g.name("p")
        params.append(p)
        lines.append(f"param {p} = {r.choice(['2.0', '0.5', '1e-5', '3', '1.0 / 3.0', '-1.5'])}")
    lines.append("acc f32")

    def leaf() -> str:
        c = r.random()
        if c < 0.45:
            return x
        if c < 0.6 and w:
            return w
        if c < 0.75 and params:
            return r.choice(params)
        return r.choice(["2.0", "0.5", "1.5", "3.0"])

    def elem(depth: int = 2) -> str:
        """An element-wise expression over inputs and parameters, values of order 1..10."""
        if depth == 0 or r.random() < 0.3:
            return leaf()
        a, b = elem(depth - 1), elem(depth - 1)
        return r.choice([f"({a} + {b})", f"({a} - {b})", f"{a} * {b}", f"abs({a})", f"max({a}, {b})",
                         f"min({a}, {b})", f"exp({x} * 0.5)", f"{a} / (abs({b}) + 1.0)",
                         f"sqrt(abs({a}) + 1.0)", f"log(abs({a}) + 1.0)", f"-{a}"])

    reds: list[tuple[str, str]] = []  # (name, combiner)
    outs: list[str] = []
    body: list[str] = []
    stages = r.randint(1, 3)
    for st in range(stages):
        for _ in range(r.randint(1, 2)):
            comb = r.choice(["sum", "sum", "max", "min"])
            e = elem()
            e = r.choice([f"{x} * ({e})", f"({e}) + {x}", f"{x}"])  # every reduction reads x element-wise
            if st > 0 and reds:
                prev, pcomb = r.choice(reds)
                # a later stage reads an earlier total: centred or scaled element values
                e = r.choice([f"({e} - {prev} / {red})", f"({x} - {prev} / {red}) * ({x} - {prev} / {red})",
                              f"exp({x} - {prev})" if pcomb == "max" else f"{e} * ({prev} / {red})"])
            s = g.name("s")
            body.append(f"reduce {red}: {s} = {comb}({e})")
            reds.append((s, comb))
    arg = None
    if stages == 1 and r.random() < 0.3:  # an index reduction must be in the last stage
        arg = g.name("i")
        body.append(f"reduce {red}: {arg} = {r.choice(['argmax', 'argmin'])}({x})")
    # locals over totals, then outputs
    vals = [s for s, _ in reds]
    if r.random() < 0.5:
        v = g.name("t")
        s = r.choice(vals)
        body.append(f"{v} = {s} / {red} + {r.choice(params) if params else '1.0'}")
        vals.append(v)
    n_red_out = r.randint(1, 2) if batch else 1
    for _ in range(n_red_out):
        o = g.name("y")
        a, b = r.choice(vals), r.choice(vals)
        e = r.choice([a, f"{a} / {red}", f"{a} * {b}", f"sqrt(abs({a}) + 1.0)", f"log(abs({a}) + 1.0)",
                      f"{a} / (abs({b}) + 1.0)", f"{a} + {b} * {params[0] if params else '2.0'}"])
        outs.append(f"out {o}[{', '.join(batch)}] : like {x}")
        body.append(f"{o} = {e}")
    if arg:
        o = g.name("idx")
        outs.append(f"out {o}[{', '.join(batch)}] : i64")
        body.append(f"{o} = {arg}")
    if r.random() < 0.4:
        o = g.name("z")
        a = r.choice(vals)
        outs.append(f"out {o}[{', '.join(axes)}] : like {x}")
        body.append(f"{o} = " + r.choice([f"({x} - {a} / {red}) * {w or '2.0'}", f"{x} / (abs({a}) + 1.0)",
                                           f"exp({x} - {a})" if any(c == 'max' and s == a for s, c in reds)
                                           else f"{x} * {a}"]))
    lines += outs + body
    lanes = r.choice([16, 32, 64, 128])
    tiles = [f"{red} = {lanes}"]
    if before in batch and r.random() < 0.3:
        tiles.append(f"{before} = {r.choice([1, 2, 4])}")
    if after in batch and r.random() < 0.5:
        tiles.append(f"{after} = {r.choice([1, 2, 4, 16])}")
    lines.append(f"tile {', '.join(tiles)}")
    split = r.random()
    if split < 0.45:
        lines.append(f"split {red} fixed_size {r.choice([lanes, 2 * lanes, 3 * lanes + 1, 100])}")
    elif split < 0.7:
        lines.append(f"split {red} fixed_count {r.choice([1, 2, 3, 5])}")
    if r.random() < 0.3:
        lines.append(f"warps {r.choice([1, 2, 4, 8])}")
    if r.random() < 0.3:
        lines.append(f"cores {r.choice(['auto', '8', '40'])}")
    return "\n".join(lines) + "\n"



def run(seed: int, target: str, out_dir) -> dict:
    """Build spec `seed` for `target`, and when it proves, run its module under the interpreter:
    every output against the float64 reference, batch invariance bitwise. Needs
    TRITON_INTERPRET=1 set before triton is imported. Returns a record: status 'passed',
    'refused' (a coded RedgenError: the spec did not prove, which is allowed) or 'FAILED'."""
    import importlib.util
    from pathlib import Path

    from redgen.check import check
    from redgen.emit import emit
    from redgen.errors import RedgenError
    from redgen.parse import parse
    from redgen.targets import planner
    from redgen.verify import worker
    from redgen.verify.empirical import _prime_at_least, case
    from redgen.verify.proof import prove

    text = spec(seed)
    rec = {"seed": seed, "target": target}
    try:
        op = check(parse(text, f"gen{seed}.red"))
        plan = planner(target)(op)
        cert = prove(plan)
        source = emit(plan, cert)
    except RedgenError as e:
        return {**rec, "status": "refused", "detail": e.render().splitlines()[0]}
    path = Path(out_dir) / f"_diff_{target}_{seed}.py"
    path.write_text(source)
    try:
        mspec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(mspec)
        mspec.loader.exec_module(module)
        c = case(plan)
        lanes = plan.order.lanes.eval({})
        chunk = plan.order.chunk.eval({}) if plan.order.chunk.is_const() else 2 * lanes
        c["N"] = {"below_lanes": max(1, lanes - lanes // 4 - 1), "chunk_tail": chunk + 3,
                  "chunks": 2 * chunk + 5, "prime": _prime_at_least(lanes + lanes // 3)}
        c["batch_sizes"] = [1, 2, 3, 6] if op.before else [1]
        c["after_sizes"] = [1, 2, 4] if op.after else [1]
        c["positions"] = [0, 3]
        c["seed"] = seed
        if getattr(module, "CORES", 0) is None:
            import os

            os.environ.setdefault("REDGEN_ASCEND_CORES", "40")
        runner = worker._Runner(module, c)
        failure, compared = worker.check(runner, c, op)
    except Exception as e:  # a crash of a proved spec's module is a finding, with its cause
        failure, compared = f"{type(e).__name__}: {e}", 0
    if failure:
        return {**rec, "status": "FAILED", "detail": failure, "spec": text}
    return {**rec, "status": "passed", "compared": compared}
