"""User-facing errors: each one has a code, a message and a source location.

Every failure a user can cause (bad spec, unverifiable plan, bad flag) is a
subclass of :class:`RedgenError`; the CLI renders it as

    specs/x.red:3:5: error[E101]: unknown name 'y'; did you mean 'x'?
        3 |   reduce N: s = sum(y)
          |                     ^

and exits 1, so no Python traceback reaches a user.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Loc:
    """A position in a spec file (1-based line and column)."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class RedgenError(Exception):
    """Base class of every error redgen reports to a user."""

    code = "E000"

    def __init__(self, message: str, loc: Loc | None = None, source: str | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.source = source

    def render(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        head = f"{where}error[{self.code}]: {self.message}"
        if not (self.loc and self.source):
            return head
        lines = self.source.splitlines()
        if not 1 <= self.loc.line <= len(lines):
            return head
        text = lines[self.loc.line - 1].rstrip("\n")
        gutter = f"{self.loc.line:5d} | "
        # Tabs are kept under the caret so that it lines up with the source line.
        pad = "".join(c if c == "\t" else " " for c in text[: self.loc.col - 1])
        caret = " " * (len(gutter) - 2) + "| " + pad + "^"
        return f"{head}\n{gutter}{text}\n{caret}"

    def __str__(self) -> str:
        return self.render()


def did_you_mean(name: str, candidates) -> str:
    """A '; did you mean ...' suffix when a close candidate exists."""
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else ""


# --- syntax (parse.py) -------------------------------------------------------
class SyntaxError_(RedgenError):
    code = "E001"


class UnexpectedEnd(RedgenError):
    code = "E002"


# --- semantics (check.py) ----------------------------------------------------
class UnknownName(RedgenError):
    code = "E101"


class DuplicateName(RedgenError):
    code = "E102"


class BadDtype(RedgenError):
    code = "E103"


class UnknownCombiner(RedgenError):
    code = "E104"


class BadTile(RedgenError):
    code = "E105"


class BadAxis(RedgenError):
    code = "E106"


class BadExpr(RedgenError):
    code = "E107"


class MissingDecl(RedgenError):
    code = "E108"


class BadOutput(RedgenError):
    code = "E109"


class BadSplit(RedgenError):
    code = "E110"


class UnknownFunction(RedgenError):
    code = "E111"


class BadArity(RedgenError):
    code = "E112"


class BadCores(RedgenError):
    code = "E113"


class BadWarps(RedgenError):
    code = "E114"


class BadLayout(RedgenError):
    code = "E115"


class IndexMisuse(RedgenError):
    """An argmax/argmin result (an index) used as a value, or carried into a later stage."""

    code = "E116"


class DtypeMismatch(RedgenError):
    """An i64 output assigned a value, or an index assigned to a float output."""

    code = "E117"


# --- language extensions (issue 14): integer inputs, gathers, targets -----------
class IntegerMisuse(RedgenError):
    """An integer (i64) input used as a value: it can only be a gather index or compared."""

    code = "E118"


class BadGather(RedgenError):
    """`x[t]` whose x is not a float input over the reduce axis, or whose t is not an
    integer input over batch axes only."""

    code = "E119"


class NotOnTarget(RedgenError):
    """A function or dtype the target's compiler cannot lower (checked at build time)."""

    code = "T305"


# --- verification (verify.py) ------------------------------------------------
class NotInvariant(RedgenError):
    """The verifier found two batch sizes that give different orders."""

    code = "V201"


class EmpiricalMismatch(RedgenError):
    """The emitted kernel produced different bits for a shared row."""

    code = "V202"


class StaleCertificate(RedgenError):
    """A committed generated module disagrees with a fresh build."""

    code = "V203"


# --- targets and usage -------------------------------------------------------
class UnknownTarget(RedgenError):
    code = "T301"


class TargetLimit(RedgenError):
    """A plan exceeds a hardware limit of its target (grid, on-chip memory)."""

    code = "T302"


class UsageError(RedgenError):
    """Bad command-line use: exit code 2."""

    code = "U401"


class UnknownKernel(RedgenError, LookupError):
    """`redgen.load` was asked for an op or a target with no generated module."""

    code = "T303"


class NotCovered(RedgenError, RuntimeError):
    """Strict batch-invariant mode: an aten call the generated kernels do not cover."""

    code = "T304"
