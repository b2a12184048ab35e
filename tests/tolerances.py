"""The per-dtype tolerances live in the package (redgen/tolerances.py), where the
empirical check uses them too; the tests import them from here as before."""

from __future__ import annotations

from redgen.tolerances import EXACT, TOLERANCE, assert_accurate, tolerance

__all__ = ["EXACT", "TOLERANCE", "assert_accurate", "tolerance"]
