"""redgen: a declarative generator of batch-invariant reduction kernels."""

from __future__ import annotations

__version__ = "0.1.0"
