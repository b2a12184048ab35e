"""The `redgen` command: check, verify, build.

Exit codes: 0 success, 1 a spec/verification error (rendered as
file:line:col: error[CODE]: ...), 2 command-line misuse.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__, targets
from .errors import RedgenError, UsageError
from .export import ensure_packages, write_atomic
from .pipeline import build_spec, check_spec, module_path, plan_spec, spec_files
from .verify import prove


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 on misuse; keep that, with our format
        self.print_usage(sys.stderr)
        print(f"redgen: error[{UsageError.code}]: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="redgen", description="Generate batch-invariant reduction kernels from .red specs.")
    p.add_argument("--version", action="version", version=f"redgen {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    c = sub.add_parser("check", help="parse and type-check specs", description="Parse and type-check specs.")
    c.add_argument("specs", help="a .red file or a directory of them")
    v = sub.add_parser("verify", help="prove batch invariance (and run the empirical check), export nothing",
                       description="Prove that every output element is reduced in a fixed order whatever "
                                   "the batch size; print what the order depends on or a counterexample.")
    v.add_argument("specs", help="a .red file or a directory of them")
    v.add_argument("--target", default="cuda", help="target to plan for (default: cuda)")
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
    return p


def _check(args) -> int:
    for path in spec_files(args.specs):
        op = check_spec(path)
        print(f"{path}: ok (op {op.name}, reduce {op.reduce_axis}, {len(op.reductions)} reduction(s))")
    return 0


def _verify(args) -> int:
    targets.planner(args.target)
    for path in spec_files(args.specs):
        plan = plan_spec(path, args.target)
        cert = prove(plan)
        if not args.no_empirical:
            cert = build_spec(path, args.target).certificate
        print(f"{path}: verified ({args.target})")
        for line in cert.lines():
            print(f"  {line}")
    return 0


def _build(args) -> int:
    targets.planner(args.target)  # an unknown target fails before any work
    out = Path(args.out)
    built = [build_spec(p, args.target, empirical=not args.no_empirical) for p in spec_files(args.specs)]
    # Everything verified: only now is anything written.
    stale = []
    for b in built:
        dest = module_path(out, args.target, b.op.name)
        if args.check:
            if not dest.exists() or dest.read_text() != b.source:
                stale.append(str(dest))
            continue
        ensure_packages(out, args.target)
        changed = write_atomic(dest, b.source)
        print(f"{dest}: {'written' if changed else 'up to date'} (certificate {b.certificate.digest()[:12]})")
    if stale:
        print("out of date (run `redgen build` and commit): " + ", ".join(stale), file=sys.stderr)
        return 1
    if args.check:
        print(f"{len(built)} generated module(s) match a fresh build")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return {"check": _check, "verify": _verify, "build": _build}[args.cmd](args)
    except RedgenError as e:
        print(e.render(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
