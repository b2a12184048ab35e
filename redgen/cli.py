"""The `redgen` command: check, verify, build, recheck.

Exit codes: 0 success, 1 a spec/verification error (rendered as
file:line:col: error[CODE]: ...), 2 command-line misuse.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

from . import __version__, targets
from .errors import Loc, RedgenError, StaleCertificate, UsageError
from .export import ensure_packages, write_atomic
from .pipeline import (
    build_spec,
    build_specs,
    check_spec,
    committed_certificate,
    module_path,
    plan_spec,
    prove_plan,
    spec_files,
)


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
    b.add_argument("--reuse-empirical", action="store_true",
                   help="with --check: re-prove and re-emit everything but take the interpreter-run record "
                        "from the committed module instead of running it again (CI's fast path)")
    r = sub.add_parser("recheck", help="re-prove the certificates embedded in generated modules",
                       description="For every generated module: re-plan and re-prove its spec (the spec path "
                                   "in its CERTIFICATE) for its target and compare the symbolic certificate "
                                   "and the spec's sha256 with the embedded ones; exit 1 (V203) on a "
                                   "mismatch. The empirical record is re-checked by `redgen build --check`.")
    r.add_argument("generated", nargs="?", default="generated",
                   help="a generated module or a directory of them (default: generated)")
    r.add_argument("--root", default=".", help="directory the certificates' spec paths are relative to "
                                               "(default: the current directory)")
    return p


def _check(args) -> int:
    for path in spec_files(args.specs):
        op = check_spec(path)
        what = f"{len(op.reductions)} reduction(s)" if hasattr(op, "reductions") else "a contraction"
        print(f"{path}: ok (op {op.name}, reduce {op.reduce_axis}, {what})")
    return 0


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
        kernels = (", ".join(f"{k.name} ({k.when})" for k in plan.kernels) if hasattr(plan, "kernels")
                   else f"{len(plan.regimes)} M regime(s)")  # a contraction (redgen/contraction.py)
        print(f"{path}: verified ({args.target}; kernels {kernels} share this order)")
        for line in cert.lines():
            print(f"  {line}")
    if failed:
        print(f"redgen: {failed} spec(s) not verified", file=sys.stderr)
    return 1 if failed else 0


def _generated_modules(arg: str) -> list[Path]:
    p = Path(arg)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise RedgenError(f"no such generated module or directory: '{p}'")
    found = sorted(x for x in p.rglob("*.py") if x.name != "__init__.py")
    if not found:
        raise RedgenError(f"no generated modules under '{p}'")
    return found


def _line_of(text: str, prefix: str) -> int:
    return next((i for i, line in enumerate(text.splitlines(), 1) if line.startswith(prefix)), 1)


def _embedded_certificate(path: Path) -> dict:
    """CERTIFICATE of a generated module, by importing it (triton.jit compiles nothing until a launch)."""
    name = "_redgen_recheck_" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise StaleCertificate(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # triton reads kernel source through the module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - any import failure is a broken generated module
        raise StaleCertificate(f"{path}: cannot import the generated module: {type(e).__name__}: {e}") from None
    finally:
        sys.modules.pop(name, None)
    cert = getattr(module, "CERTIFICATE", None)
    if not isinstance(cert, dict):
        raise StaleCertificate(f"{path}: the module has no CERTIFICATE dict (not generated by redgen?)")
    return cert


def _short(v) -> str:
    out = json.dumps(v, sort_keys=True)
    return out if len(out) <= 160 else out[:157] + "..."


def recheck_module(path: Path, root: Path) -> dict:
    """Re-prove one generated module's spec and compare certificates; StaleCertificate on a mismatch."""
    text = path.read_text()
    embedded = _embedded_certificate(path)
    cert_loc = Loc(str(path), _line_of(text, "CERTIFICATE"), 1)

    def stale(msg: str, loc: Loc = cert_loc) -> StaleCertificate:
        return StaleCertificate(f"stale certificate in {path}: {msg}; run `redgen build` and commit", loc, text)

    header = Loc(str(path), _line_of(text, "# certificate sha256:"), 1)
    want = hashlib.sha256(json.dumps(embedded, sort_keys=True).encode()).hexdigest()
    if f"# certificate sha256: {want}" not in text:
        raise stale(f"the header's certificate sha256 is not the digest of CERTIFICATE ({want[:12]}...)", header)
    missing = [k for k in ("spec", "target", "spec_sha256") if not isinstance(embedded.get(k), str)]
    if missing:
        raise stale(f"CERTIFICATE lacks {', '.join(missing)}")
    spec = root / embedded["spec"]
    if not spec.is_file():
        raise stale(f"its spec '{embedded['spec']}' does not exist (relative to {root})")
    digest = hashlib.sha256(spec.read_text().encode()).hexdigest()
    if digest != embedded["spec_sha256"]:
        raise stale(f"{embedded['spec']} changed since the module was generated (spec sha256 {digest[:12]}..., "
                    f"certificate says {embedded['spec_sha256'][:12]}...)",
                    Loc(str(path), _line_of(text, "# spec sha256:"), 1))
    try:
        fresh = prove_plan(plan_spec(spec, embedded["target"])).to_dict()
    except RedgenError as e:
        print(e.render(), file=sys.stderr)
        raise stale(f"its spec {embedded['spec']} no longer verifies for target {embedded['target']} "
                    f"({e.code}, above)") from None
    fresh["spec"] = embedded["spec"]  # located through that very path; may be spelt relative to --root
    keys = sorted((set(fresh) | set(embedded)) - {"empirical"})
    diff = [k for k in keys if fresh.get(k) != embedded.get(k)]
    if diff:
        raise stale("; ".join(f"{k}: embedded {_short(embedded.get(k))}, re-proved {_short(fresh.get(k))}"
                              for k in diff))
    return embedded


def _recheck(args) -> int:
    """Re-prove every generated module's certificate; exit 1 on any mismatch (all are reported)."""
    root = Path(args.root)
    failed = 0
    modules = _generated_modules(args.generated)
    for path in modules:
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


def _build(args) -> int:
    targets.planner(args.target)  # an unknown target fails before any work
    if args.reuse_empirical and not args.check:
        raise UsageError("--reuse-empirical only makes sense with --check: a build must run the empirical check")
    out = Path(args.out)
    specs = spec_files(args.specs)
    empirical: list[bool | dict] = []
    for path in specs:
        committed = None
        if args.reuse_empirical:
            committed = committed_certificate(module_path(out, args.target, check_spec(path).name))
        empirical.append(committed["empirical"] if committed else not args.no_empirical)
    built = build_specs(specs, args.target, empirical)
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
        return {"check": _check, "verify": _verify, "build": _build, "recheck": _recheck}[args.cmd](args)
    except RedgenError as e:
        print(e.render(), file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1


if __name__ == "__main__":
    sys.exit(main())
