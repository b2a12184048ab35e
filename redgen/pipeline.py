"""The whole pipeline as one list of named stages.

    .red text --parse--> syntax --check--> Op --plan(target)--> Plan
        --verify--> Certificate --emit--> source --(empirical)--> export
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import importlib.metadata
import itertools
import json
import keyword
import os
import stat
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from redgen import __version__, ir, parse, targets
from redgen import check as check_mod
from redgen import emit as emit_mod
from redgen.errors import (
    BadExpr,
    BadOpName,
    BadOutput_,
    BadSpecFile,
    DuplicateOp,
    EmpiricalMismatch,
    Loc,
    RedgenError,
    TargetLimit,
    source_lines,
)
from redgen.fmt import format_source
from redgen.plan import Plan
from redgen.verify.certificate import Certificate
from redgen.verify.proof import prove


@dataclass(frozen=True)
class Built:
    op: ir.Op
    plan: Plan
    certificate: Certificate
    source: str


def check_spec(path: str | Path) -> ir.Op:
    """The checked op, with the op its `short` statement names found and checked (short.py)."""
    from redgen import short

    return short.resolve(check_spec_only(path))


def check_spec_only(path: str | Path) -> ir.Op:
    return check_mod.check(parse.parse_file(path))


def plan_spec(path: str | Path, target: str) -> Plan:
    return plan_op(check_spec(path), target)


# --- kernel families: reductions (plan.py), contractions (contraction*.py), attention
# (attention*.py). Each has its own planner, prover, emitter and empirical check; these
# four functions are the only place the pipeline tells them apart.
def plan_op(op, target: str):
    """The plan of a checked op for `target`, by family."""
    if isinstance(op, ir.Contraction):
        from redgen.contraction import plan_contraction

        return plan_contraction(op, target)
    if not isinstance(op, ir.Op):  # attention (redgen/attention.py)
        from redgen.attention import plan

        return plan(op, target)
    return check_tile_limit(targets.planner(target)(op))


def _is_contraction(plan) -> bool:
    from redgen.contraction import ContractionPlan

    return isinstance(plan, ContractionPlan)


def emit_plan(plan, cert) -> str:
    """The module source of a proved plan, by kernel family, formatted (fmt.py)."""
    if _is_contraction(plan):
        from redgen.contraction_emit import emit_contraction

        return format_source(emit_contraction(plan, cert))
    return format_source(emit_mod.emit(plan, cert))  # reductions and attention (emit.py dispatches)


def with_certificate(source: str, old, new) -> str | None:
    """`source`, emitted for certificate `old`, as emit_plan renders it for `new`.

    Only the certificate's own text differs between the two (the header's digest and lines,
    and the CERTIFICATE literal), so a build renders each module once, for the empirical run,
    and then swaps that text in. None when a piece is not found exactly once (the caller
    renders again); tests/test_consistency.py checks the swap equals a render for every spec.
    """

    def header(c) -> str:
        return f"# certificate sha256: {c.digest()}\n" + "".join(f"#   {line}\n" for line in c.lines())

    def literal(c) -> str:
        return format_source(f"CERTIFICATE = {c.to_literal()}\n")

    out = source
    for a, b in ((header(old), header(new)), (literal(old), literal(new))):
        if out.count(a) != 1:
            return None
        out = out.replace(a, b)
    return out


def _run_empirical(plan, source: str) -> dict:
    if _is_contraction(plan):
        from redgen.verify.contraction_empirical import run_contraction_empirical

        return run_contraction_empirical(plan, source)
    from redgen.verify.empirical import run_empirical

    return run_empirical(plan, source)  # reductions and attention (empirical.py dispatches)


# Triton refuses a block of more elements (TRITON_MAX_TENSOR_NUMEL): a kernel tile
# [BLOCK, LANES] beyond it would prove, emit, import, and fail at its first launch.
MAX_TILE_ELEMENTS = 1 << 20


def check_tile_limit(plan: Plan) -> Plan:
    """TargetLimit (T302, at the tile line) when a kernel's tile exceeds Triton's limit."""
    lanes = plan.order.lanes
    if not lanes.is_const():
        return plan
    n = lanes.eval({})
    for k in plan.kernels:
        if k.block * n > MAX_TILE_ELEMENTS:
            loc = plan.op.schedule.loc(f"tile:{plan.op.reduce_axis}") or plan.order.where("lanes")
            raise TargetLimit(f"the {k.name} kernel's tile holds {k.block} x {n} = {k.block * n} elements; "
                              f"Triton allows at most {MAX_TILE_ELEMENTS} per block: use a smaller "
                              f"tile {plan.op.reduce_axis}", loc, plan.op.source)
    return plan


def build_spec(path: str | Path, target: str, empirical: bool | dict = True) -> Built:
    """Parse, check, plan, verify and emit one spec; nothing is written.

    `empirical`: True runs the interpreter check on the emitted kernels, False
    records that it was skipped, a dict is a record to reuse (`build --check
    --reuse-empirical`: the committed module's own record, so that only the
    interpreter run is not repeated).
    """
    return build_specs([path], target, [empirical])[0]


def build_specs(paths: list[Path], target: str, empirical: list[bool | dict]) -> list[Built]:
    """build_spec for several specs: proofs in this thread (z3 is not thread-safe),
    the interpreter runs (subprocesses) side by side, one per core."""
    plans = [plan_spec(p, target) for p in paths]
    certs = [prove_plan(plan) for plan in plans]
    runs = [i for i, e in enumerate(empirical) if e is True]
    records: dict[int, dict] = {}
    sources = [emit_plan(plan, pending_certificate(cert)) for plan, cert in zip(plans, certs, strict=True)]  # the one render
    if runs:
        def run(i: int) -> dict:
            return _run_empirical(plans[i], sources[i])

        with ThreadPoolExecutor(max_workers=max(1, min(len(runs), os.cpu_count() or 1))) as pool:
            records = dict(zip(runs, pool.map(run, runs), strict=True))
    built = []
    for i, (plan, cert) in enumerate(zip(plans, certs, strict=True)):
        e = empirical[i]
        record = e if isinstance(e, dict) else records.get(i, {"status": "skipped (--no-empirical)"})
        built.append(Built(plan.op, plan, cert.with_empirical(record), final_source(plan, sources[i], cert, record)))
    return built


def prove_plan(plan: Plan) -> Certificate:
    """verify.prove, with a schedule expression that divides by zero at some shape (say
    `cdiv(4096, M - M)`, which only folds to a division by zero once M is substituted)
    reported as the coded BadExpr at its spec location instead of a ZeroDivisionError.
    Contractions have their own prover (contraction.py), attention its own (verify.py
    hands it to attention_verify.py)."""
    if _is_contraction(plan):
        from redgen.contraction import prove_contraction

        return prove_contraction(plan)
    loc = plan.op.schedule.loc("split_value") or plan.op.schedule.loc("split")
    try:
        cert = prove(plan)
    except ZeroDivisionError as e:
        raise BadExpr(f"a schedule expression divides by zero at some shapes ({e}); "
                      f"every divisor must be positive for every size", loc, plan.op.source) from None
    # z3 gives x / 0 a value, so `N / (M - M)` can prove and then divide by zero in the
    # launcher: evaluate the order at sample shapes, as the launcher will.
    for name in ("chunk", "num_chunks"):
        expr = getattr(plan.order, name)
        free = sorted(expr.free())
        for values in itertools.product(_SAMPLE_SIZES, repeat=len(free)) if len(free) <= 4 else ():
            env = dict(zip(free, values, strict=True))
            try:
                expr.eval(env)
            except ZeroDivisionError:
                shown = ", ".join(f"{k}={v}" for k, v in env.items())
                raise BadExpr(f"the {name.replace('_', ' ')} divides by zero at {shown}; every divisor "
                              f"must be positive for every size", loc, plan.op.source) from None
    return cert


# Shapes at which prove_plan evaluates the order (sizes, and core budgets of real devices).
_SAMPLE_SIZES = (1, 2, 3, 40, 4096)


def spec_files(arg: str | Path) -> list[Path]:
    """A spec file, or every *.red in a directory (sorted). Entries of a directory that are
    not regular files (a directory named x.red, a FIFO) are kept: reading them gives the
    coded BadSpecFile that names them, instead of being skipped without a word."""
    p = Path(arg)
    if p.is_dir():
        found = sorted(p.glob("*.red"))
        if not found:
            raise BadSpecFile(f"no .red specs in directory '{p}'", Loc(str(p), 1, 1))
        return found
    if not os.path.lexists(p):
        raise BadSpecFile(f"no such spec file or directory: '{p}'", Loc(str(p), 1, 1))
    return [p]


def module_path(out: Path, target: str, op: str) -> Path:
    return out / target / f"{op}.py"


def committed_certificate(path: Path) -> dict | None:
    """The CERTIFICATE literal of a generated module, read without importing it."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):  # absent, unreadable or not Python: nothing to reuse
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["CERTIFICATE"]:
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, RecursionError):
                return None
            return value if isinstance(value, dict) else None
    return None


# --- `redgen build`: every spec tried, reuse of empirical records, progress (issue 14) ----------

# What a reused record says about itself, in the certificate: the one rule under which
# redgen takes a record instead of running the interpreter again.
REUSE_RULE = ("reused by `redgen build` only for byte-identical kernel source (kernel_sha256: the module "
              "without this record) under the same redgen, triton and torch; `--fresh` runs it again")


@functools.cache
def _versions() -> tuple[tuple[str, str], ...]:
    out = [("redgen", __version__)]
    for dist in ("triton", "torch"):
        try:
            out.append((dist, importlib.metadata.version(dist)))
        except importlib.metadata.PackageNotFoundError:
            out.append((dist, "absent"))
    return tuple(out)


def versions() -> dict[str, str]:
    """The versions an empirical record is valid for (read from package metadata: no import)."""
    return dict(_versions())


def pending_certificate(cert: Certificate) -> Certificate:
    """The certificate a module is rendered with before its empirical record exists."""
    return cert.with_empirical({"status": "pending"})


def final_source(plan, source: str, cert: Certificate, record: dict) -> str:
    """The module for `cert` with `record`, from `source` rendered for pending_certificate(cert): the one
    render of a build, its certificate text swapped (a second render only if that fails)."""
    final = cert.with_empirical(record)
    return with_certificate(source, pending_certificate(cert), final) or emit_plan(plan, final)


def kernel_key(source: str) -> str:
    """sha256 of a module's source as emitted with a placeholder record (pending_certificate),
    and of the versions: two builds with the same key run the very same kernels under the
    very same interpreter."""
    payload = json.dumps({"source": source, "versions": versions()}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def cache_dir() -> Path:
    """Where passed records are kept by key: $REDGEN_CACHE, else ~/.cache/redgen/empirical."""
    env = os.environ.get("REDGEN_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "redgen" / "empirical"


def _cached_record(key: str) -> dict | None:
    try:
        record = json.loads((cache_dir() / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("kernel_sha256") == key else None


def _cache_record(record: dict) -> None:
    """Best effort: a cache that cannot be written only costs a rerun next time."""
    try:
        d = cache_dir()
        d.mkdir(parents=True, exist_ok=True)
        from redgen.export import write_atomic

        write_atomic(d / f"{record['kernel_sha256']}.json", json.dumps(record, sort_keys=True) + "\n")
    except (OSError, RedgenError):
        pass


def spec_label(spec: Path, root: Path) -> str:
    """The spec path a certificate records: relative to `root` (the directory holding the
    generated package, i.e. the repository), whatever the working directory."""
    return Path(os.path.relpath(spec.resolve(), root.resolve())).as_posix()


@dataclass
class Outcome:
    """One spec of a build: what happened at each stage."""

    path: Path
    target: str
    op: str = "?"
    stage: str = "parse"  # the last stage reached
    built: Built | None = None
    error: RedgenError | None = None
    empirical: str = ""  # "ran 41.2 s", "reused (committed module)", "skipped"
    seconds: float = 0.0
    key: str = ""
    extra: dict = field(default_factory=dict)


Progress = Callable[[str], None]
HEARTBEAT_S = 30.0  # seconds between "still running" lines while interpreter checks run


def _reusable(record, key: str) -> bool:
    return isinstance(record, dict) and record.get("status") == "passed" and record.get("kernel_sha256") == key


def build_all(paths: list[Path], target: str, out: Path, *, empirical: str = "auto",
              reuse_committed: bool = False, progress: Progress = lambda _: None,
              jobs: int | None = None) -> list[Outcome]:
    """Check, plan, prove and emit every spec (each is tried; a failure is recorded in its
    Outcome, never raised), then run the interpreter check on those that need it.

    `empirical`: "auto" reuses a passed record of byte-identical kernel source (the
    committed module's own, then the cache) and runs the rest; "fresh" runs every one;
    "skip" records that it was skipped. `reuse_committed` (build --check --reuse-empirical)
    takes the committed module's record whatever its key (the comparison of the whole
    source that --check makes catches any change).
    """
    from redgen.short import with_short_specs

    t0 = time.monotonic()
    root = out.resolve().parent
    outcomes = [Outcome(p, target) for p in with_short_specs(paths)]
    plans: dict[int, Plan] = {}
    certs: dict[int, Certificate] = {}

    def say(o: Outcome, what: str) -> None:
        progress(f"[{time.monotonic() - t0:6.1f}s] {target} {o.path}: {what}")

    for i, o in enumerate(outcomes):
        start = time.monotonic()
        try:
            op = check_spec(o.path)
            o.op, o.stage = op.name, "check"
            check_op_name(op, out, target)
            plan = plan_op(op, target)
            plan = dataclasses.replace(plan, op=dataclasses.replace(plan.op, path=spec_label(o.path, root)))
            o.stage = "plan"
            certs[i] = prove_plan(plan)
            plans[i] = plan
            o.stage = "prove"
            say(o, f"proved (op {op.name}; depends on {', '.join(certs[i].depends_on) or 'nothing'})")
        except RedgenError as e:
            o.error = e
            say(o, f"FAILED at {o.stage}: error[{e.code}]")
        o.seconds += time.monotonic() - start
    _duplicates(outcomes)

    runs: list[int] = []
    for i in plans:
        o = outcomes[i]
        if o.error:
            continue
        o.extra["source"] = emit_plan(plans[i], pending_certificate(certs[i]))  # the build's one render of this module
        o.key = kernel_key(o.extra["source"])
        committed = committed_certificate(module_path(out, target, o.op)) or {}
        record = committed.get("empirical")
        if empirical == "skip":
            o.extra["record"], o.empirical = {"status": "skipped (--no-empirical)"}, "skipped"
        elif reuse_committed and isinstance(record, dict):
            o.extra["record"], o.empirical = record, "reused (committed module, --reuse-empirical)"
        elif empirical == "auto" and _reusable(record, o.key):
            o.extra["record"], o.empirical = record, "reused (committed module: same kernel source)"
        elif empirical == "auto" and (cached := _cached_record(o.key)):
            o.extra["record"], o.empirical = cached, "reused (cache: same kernel source)"
        else:
            runs.append(i)
            continue
        say(o, f"empirical {o.empirical}")

    if runs:
        def run(i: int) -> tuple[dict | RedgenError, float]:
            start = time.monotonic()
            say(outcomes[i], "empirical: running the kernels under the triton interpreter ...")
            try:
                record = _run_empirical(plans[i], outcomes[i].extra["source"])
            except RedgenError as e:
                return e, time.monotonic() - start
            except (OSError, subprocess.SubprocessError, ValueError) as e:  # the worker died or hung
                return EmpiricalMismatch(f"{outcomes[i].op}: the interpreter check did not complete: "
                                         f"{type(e).__name__}: {e}", None, None), time.monotonic() - start
            return record, time.monotonic() - start

        workers = jobs or max(1, min(len(runs), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            pending = {pool.submit(run, i): i for i in runs}
            while pending:
                done, _ = wait(pending, timeout=HEARTBEAT_S, return_when=FIRST_COMPLETED)
                if not done:  # a heartbeat: the interpreter stage is long and would be silent
                    progress(f"[{time.monotonic() - t0:6.1f}s] {target}: {len(pending)} interpreter check(s) "
                             f"still running or queued ({', '.join(outcomes[i].op for i in pending.values())})")
                    continue
                for fut in done:
                    i = pending.pop(fut)
                    result, secs = fut.result()
                    o = outcomes[i]
                    o.seconds += secs
                    o.stage = "empirical"
                    if isinstance(result, RedgenError):
                        o.error, o.empirical = result, f"FAILED ({secs:.1f} s)"
                        say(o, f"empirical FAILED: error[{result.code}]")
                        continue
                    record = {**result, "kernel_sha256": o.key, "versions": versions(), "reuse": REUSE_RULE}
                    _cache_record(record)
                    o.extra["record"], o.empirical = record, f"ran ({secs:.1f} s)"
                    say(o, f"empirical passed in {secs:.1f} s")

    for i, plan in plans.items():
        o = outcomes[i]
        if o.error:
            continue
        record = o.extra["record"]
        o.built = Built(plan.op, plan, certs[i].with_empirical(record),
                        final_source(plan, o.extra["source"], certs[i], record))
        o.stage = "emit"
    return outcomes


def check_op_name(op: ir.Op, out: Path, target: str) -> None:
    """An op name must make a module file that imports: BadOpName (at the op line) if not."""
    name = op.name
    where = Loc(op.path, 1, 1)
    for n, line in enumerate(source_lines(op.source), 1):
        words = line.split("#")[0].split()
        if words[:2] == ["op", name]:
            where = Loc(op.path, n, line.index(name, line.index("op") + 2) + 1)
            break
    if name.startswith("_"):
        raise BadOpName(f"op name '{name}' starts with '_': such module names are reserved "
                        f"(__init__, private helpers) and are not listed by redgen.load", where, op.source)
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise BadOpName(f"op name '{name}' is a Python keyword: `from generated.{target} import {name}` "
                        f"could not be written", where, op.source)
    limit = 255
    probe = next((d for d in (out / target, out, out.parent) if d.is_dir()), None)
    if probe is not None:
        try:
            limit = os.pathconf(probe, "PC_NAME_MAX")
        except (OSError, ValueError):
            pass
    # the module file and the temp file it is written through (".<name>.py.<random>.tmp")
    if len(f".{name}.py.xxxxxxxx.tmp".encode()) > limit:
        raise BadOpName(f"op name '{name[:20]}...' ({len(name)} characters) is too long for a file name "
                        f"here (at most {limit} bytes with the temp file's affixes)", where, op.source)


def _duplicates(outcomes: list[Outcome]) -> None:
    """Two specs of one build with the same op would write one module: both fail, naming each other."""
    by_op: dict[str, list[Outcome]] = {}
    for o in outcomes:
        if not o.error:
            by_op.setdefault(o.op, []).append(o)
    for op, same in by_op.items():
        if len(same) > 1:
            for o in same:
                others = ", ".join(str(x.path) for x in same if x is not o)
                o.error = DuplicateOp(f"op '{op}' is also defined by {others}: both would write "
                                      f"{op}.py; rename one", Loc(str(o.path), 1, 1))


def check_out_dir(out: Path, target: str) -> None:
    """`--out` must be (or become) a writable directory: BadOutput_ naming the path if not."""
    for d in (out, out / target):
        if os.path.lexists(d) and not d.is_dir():
            raise BadOutput_(f"output path '{d}' exists and is not a directory", Loc(str(d), 1, 1))
    existing = next((d for d in (out / target, out, *out.resolve().parents) if d.is_dir()), None)
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        raise BadOutput_(f"output directory '{existing}' is not writable", Loc(str(existing), 1, 1))
