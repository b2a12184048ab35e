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
        lines = source_lines(self.source)
        if not 1 <= self.loc.line <= len(lines):
            return head
        # Control characters (a stray \r, \x0c, \x85, \u2028 ...) would move the terminal's
        # cursor: shown escaped, and the caret counts their escaped width.
        text = lines[self.loc.line - 1]
        gutter = f"{self.loc.line:5d} | "
        # Tabs are kept under the caret so that it lines up with the source line.
        pad = "".join(c if c == "\t" else " " * len(_shown(c)) for c in text[: self.loc.col - 1])
        caret = " " * (len(gutter) - 2) + "| " + pad + "^"
        return f"{head}\n{gutter}{''.join(_shown(c) for c in text)}\n{caret}"

    def __str__(self) -> str:
        return self.render()


def source_lines(text: str) -> list[str]:
    """The lines of a spec, the one definition every position in redgen uses.

    A line ends at '\\n' only (an '\\r' before it is part of the line break), as in
    the grammar and Lark's line counter; other characters that str.splitlines()
    breaks at ('\\r', '\\x0c', '\\x85', '\\u2028', ...) are characters of the line, so
    a line:col from the parser and the line shown under it always agree.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def _shown(c: str) -> str:
    """How a character of a source line is printed under an error: control and
    line-breaking characters escaped (repr without quotes), the rest as is."""
    if c == "\t" or (c.isprintable() and c not in "\x85\u2028\u2029"):
        return c
    return repr(c)[1:-1]


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


class BadShort(RedgenError):
    """A `short N <= bound : op` statement: not the reduce axis, a bound that is not a positive
    constant, an op spec that is missing, or one whose signature differs from this spec's."""

    code = "E120"


class BadTune(RedgenError):
    """A `tune TARGET KNOB = VALUE` statement: an unknown target, a knob that target's launcher
    for this op does not have, a value that is not a non-negative constant integer, or a knob
    tuned twice."""

    code = "E121"


class NotOnTarget(RedgenError):
    """A function or dtype the target's compiler cannot lower (checked at build time)."""

    code = "T305"


# --- verification (verify.py) ------------------------------------------------
# --- attention (redgen/attention.py) ---
class BadAttention(RedgenError):
    """A statement of an attention spec (softmax_sum, mask, group) that does not fit its shape."""

    code = "E130"


class BadMask(RedgenError):
    code = "E131"


class BadGroup(RedgenError):
    code = "E132"


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


# --- robustness: hostile input, files and sizes (issue 13) --------------------
# A separate block so that merges with other branches' codes stay trivial.
class BadLiteral(RedgenError):
    """A number the spec cannot mean: an integer too large for a size, a float that overflows."""

    code = "E003"


class TooDeep(RedgenError):
    """An expression nested deeper than redgen handles (instead of a RecursionError)."""

    code = "E004"


class BadSpecFile(RedgenError):
    """A spec path that is not a readable UTF-8 text file (a directory, a FIFO, no permission...)."""

    code = "F501"


class BadOutput_(RedgenError):
    """`--out` (or a path under it) cannot be written: a file, read-only, a name too long."""

    code = "F502"


class DuplicateOp(RedgenError):
    """Two specs of one build define the same op: both would write one module."""

    code = "F503"


class BadOpName(RedgenError):
    """An op name that cannot be a module file (a Python dunder such as __init__, too long)."""

    code = "F504"


class MissingTemplates(RedgenError):
    """redgen's Jinja templates cannot be found: an install without its package data."""

    code = "F505"


class FormatFailed(RedgenError):
    """The pinned ruff that formats generated modules is missing, another version, or refused
    the emitted text."""

    code = "F506"



# --- certificates (issue 10): what a proof cannot cover is refused -----------------
class BatchValue(RedgenError):
    """An expression reads a batch axis size, a batch index or the core budget: a row's
    values would depend on the batch or the device, whatever the combine order."""

    code = "E150"


class OpName(RedgenError):
    """The op name cannot name a generated module and its launcher."""

    code = "E151"
