"""The `redgen` command: check, verify, build, recheck.

Exit codes: 0 success, 1 a spec/verification error (rendered as
file:line:col: error[CODE]: ...), 2 command-line misuse.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from redgen import __version__, ir, targets
from redgen.errors import RedgenError, UnknownTarget, UsageError
from redgen.export import package_files, write_set
from redgen.pipeline import (
    build_all,
    build_spec,
    check_out_dir,
    check_spec,
    module_path,
    spec_files,
)
from redgen.verify.recheck import recheck_module


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on misuse; keep that, with our format
        self.print_usage(sys.stderr)
        print(f"redgen: error[{UsageError.code}]: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="redgen", description="Generate batch-invariant reduction kernels from .red specs.")
    p.add_argument("--version", action="version", version=f"redgen {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser,
                           title="commands (redgen COMMAND --help for each)")
    c = sub.add_parser("check", help="parse and type-check specs", description="Parse and type-check specs.")
    c.add_argument("specs", help="a .red file or a directory of them")
    v = sub.add_parser("verify", help="prove batch invariance (and run the empirical check), export nothing",
                       description="Prove that every output element is reduced in a fixed order whatever "
                                   "the batch size; print what the order depends on or a counterexample.")
    v.add_argument("specs", help="a .red file or a directory of them")
    v.add_argument("--target", default="cuda", help=f"target to plan for: {', '.join(targets.names())} "
                                                    "(default: cuda)")
    v.add_argument("--no-empirical", action="store_true", help="skip running the kernels under the interpreter")
    b = sub.add_parser("build", help="check, plan, verify and emit kernels into generated/",
                       description="Check, plan, verify and emit kernels; nothing is written for a spec "
                                   "that does not verify.")
    b.add_argument("specs", help="a .red file or a directory of them")
    b.add_argument("--target", required=True, help=f"backend: {', '.join(targets.names())}")
    b.add_argument("--out", default="generated", help="output directory (default: generated)")
    b.add_argument("--no-empirical", action="store_true",
                   help="skip the interpreter run (the certificate records that it was skipped)")
    b.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 if a generated file differs from a fresh build")
    b.add_argument("--reuse-empirical", action="store_true",
                   help="with --check: take the committed module's interpreter-run record whatever its "
                        "kernel hash (the whole-source comparison of --check catches any change)")
    b.add_argument("--fresh", action="store_true",
                   help="run the interpreter check of every spec again, even where a passed record of "
                        "byte-identical kernel source exists (by default such a record is reused, and "
                        "the output says so)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress lines (the summary table stays)")
    r = sub.add_parser("recheck", help="re-prove the certificates embedded in generated modules",
                       description="For every generated module: re-plan and re-prove its spec (the spec path "
                                   "in its CERTIFICATE) for its target and compare the symbolic certificate "
                                   "and the spec's sha256 with the embedded ones; exit 1 (V203) on a "
                                   "mismatch. The empirical record is re-checked by `redgen build --check`.")
    r.add_argument("generated", nargs="?", default="generated",
                   help="a generated module or a directory of them (default: generated)")
    r.add_argument("--root", default=None,
                   help="directory the certificates' spec paths are relative to (default: the directory "
                        "holding the generated package, e.g. the repository for generated/cuda/mean.py)")
    return p


def _check(args) -> int:
    """Every spec is checked (a directory reports all its failures); exit 1 if any failed."""
    paths = spec_files(args.specs)
    failed = 0
    for path in paths:
        try:
            op = check_spec(path)
        except RedgenError as e:
            print(e.render(), file=sys.stderr)
            failed += 1
            continue
        print(f"{path}: ok (op {op.name}, reduce {op.reduce_axis}, {_what(op)})")
    if failed and len(paths) > 1:
        print(f"redgen: {failed} of {len(paths)} spec(s) failed the check", file=sys.stderr)
    return 1 if failed else 0


def _verify(args) -> int:
    """Every spec is tried (a directory reports all its failures); exit 1 if any failed."""
    targets.planner(args.target)
    failed = 0
    for path in spec_files(args.specs):
        try:
            built = build_spec(path, args.target, empirical=not args.no_empirical)
            plan, cert = built.plan, built.certificate
        except RedgenError as e:
            print(e.render(), file=sys.stderr)
            failed += 1
            continue
        print(f"{path}: verified ({args.target}; {_kernels_text(plan)})")
        for line in cert.lines():
            print(f"  {line}")
    if failed:
        print(f"redgen: {failed} spec(s) not verified", file=sys.stderr)
    return 1 if failed else 0


def _what(op) -> str:
    """What kind of op a checked spec is, for `redgen check`."""
    if isinstance(op, ir.Contraction):
        return "a contraction"
    if not isinstance(op, ir.Op):
        return "attention"
    return f"{len(op.reductions)} reduction(s)"


def _kernels_text(plan) -> str:
    """The kernel shapes in the spec's own axis names ('rows (T == 1), cols (T > 1)'); a lone
    kernel shape has no condition to show."""
    if not hasattr(plan, "kernels"):  # a contraction: one kernel, tiles by M regime
        return f"one persistent kernel; its {len(plan.regimes)} dtype(s)' M regimes share this order"
    if not isinstance(plan.op, ir.Op):  # attention: one kernel form, fused or split over KV chunks
        return f"kernels {', '.join(k.name for k in plan.kernels)} share this order"
    if len(plan.kernels) == 1:
        return f"one kernel shape, {plan.kernels[0].name}"
    names = {"M": plan.op.before or "M", "K": plan.op.after or "K", "N": plan.op.reduce_axis}
    axis = re.compile(r"\b[MNK]\b")
    shown = [f"{k.name} ({axis.sub(lambda m: names[m[0]], k.when)})" for k in plan.kernels]
    return f"kernel shapes {', '.join(shown)} share this order"


def _generated_modules(arg: str) -> list[Path]:
    p = Path(arg)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise RedgenError(f"no such generated module or directory: '{p}'")
    found = sorted(x for x in p.rglob("*.py") if x.name != "__init__.py" and not x.name.startswith("."))
    if not found:
        raise RedgenError(f"no generated modules under '{p}'")
    return found


def _recheck(args) -> int:
    """Re-prove every generated module's certificate; exit 1 on any mismatch (all are reported)."""
    failed = 0
    modules = _generated_modules(args.generated)
    for path in modules:
        # generated/<target>/<op>.py: its spec path is relative to generated/'s parent (build's rule)
        root = Path(args.root) if args.root is not None else path.resolve().parent.parent.parent
        try:
            cert = recheck_module(path, root)
        except RedgenError as e:
            print(e.render(), file=sys.stderr)
            failed += 1
            continue
        print(f"{path}: certificate re-proved ({cert['target']}, {cert['spec']}, "
              f"{cert['method'].split(':')[0]})")
    if failed:
        print(f"redgen: {failed} of {len(modules)} generated module(s) have a stale certificate", file=sys.stderr)
        return 1
    print(f"{len(modules)} certificate(s) re-proved")
    return 0


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _table(rows: list[list[str]], head: list[str]) -> str:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*r).rstrip() for r in [head, ["-" * w for w in widths], *rows])


def _build(args) -> int:
    """Every spec is tried; nothing is written unless all of them verify (then all at once)."""
    if args.target not in targets.names():
        targets.planner(args.target)  # the coded UnknownTarget, with a did-you-mean
    if args.reuse_empirical and not args.check:
        raise UsageError("--reuse-empirical only makes sense with --check: a build must run the empirical check")
    if args.fresh and args.no_empirical:
        raise UsageError("--fresh and --no-empirical contradict each other: pick one")
    t0 = time.monotonic()
    out = Path(args.out)
    if not args.check:
        check_out_dir(out, args.target)
    specs = spec_files(args.specs)
    mode = "skip" if args.no_empirical else "fresh" if args.fresh else "auto"
    quiet = (lambda _: None) if args.quiet else _progress
    outcomes = build_all(specs, args.target, out, empirical=mode, reuse_committed=args.reuse_empirical,
                         progress=quiet)
    failed = [o for o in outcomes if o.error]
    for o in failed:
        print(o.error.render(), file=sys.stderr)
    files = {} if failed else {module_path(out, args.target, o.op): o.built.source for o in outcomes}
    status: dict[Path, str] = {}
    if failed:
        status = {}
    elif args.check:
        for path, text in files.items():
            try:
                same = path.read_text(encoding="utf-8") == text
            except (OSError, UnicodeDecodeError):
                same = False
            status[path] = "matches" if same else "OUT OF DATE"
    else:
        changed = write_set({**package_files(out, args.target), **files})
        status = {p: "written" if changed[p] else "up to date" for p in files}
    rows = []
    for o in outcomes:
        dest = module_path(out, args.target, o.op) if o.op != "?" else None
        rows.append([str(o.path), args.target, o.op,
                     f"FAILED ({o.error.code} at {o.stage})" if o.error else "proved",
                     o.empirical or "-",
                     status.get(dest, "not written") if dest else "not written",
                     f"{o.seconds:.1f}s"])
    print(_table(rows, ["spec", "target", "op", "verification", "empirical", "module", "time"]))
    reused = sum(o.empirical.startswith("reused") for o in outcomes)
    ran = sum(o.empirical.startswith("ran") for o in outcomes)
    print(f"{len(outcomes)} spec(s): {len(outcomes) - len(failed)} verified, {len(failed)} failed; "
          f"empirical: {ran} run, {reused} reused (byte-identical kernel source; --fresh runs them); "
          f"{time.monotonic() - t0:.1f} s")
    if failed:
        print(f"redgen: {len(failed)} of {len(outcomes)} spec(s) failed; nothing written", file=sys.stderr)
        return 1
    stale = [str(p) for p, st in status.items() if st == "OUT OF DATE"]
    if stale:
        print("out of date (run `redgen build` and commit): " + ", ".join(stale), file=sys.stderr)
        return 1
    if args.check:
        print(f"{len(outcomes)} generated module(s) match a fresh build")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return {"check": _check, "verify": _verify, "build": _build, "recheck": _recheck}[args.command](args)
    except RedgenError as e:
        print(e.render(), file=sys.stderr)
        # an unknown --target is command-line misuse, like an unknown flag
        return 2 if isinstance(e, (UsageError, UnknownTarget)) else 1
    except KeyboardInterrupt:
        print("redgen: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
