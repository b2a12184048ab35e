"""redgen: a declarative generator of batch-invariant reduction kernels.

The runtime API (`load`, `available`, `batch_invariant`, `enable`, `disable`,
`is_enabled`) is imported lazily, so `import redgen` (and the CLI) never pulls in
torch or triton.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "load": "runtime.loader",
    "available": "runtime.loader",
    "batch_invariant": "runtime.mode",
    "enable": "runtime.mode",
    "disable": "runtime.mode",
    "is_enabled": "runtime.mode",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        mod = importlib.import_module(f".{_LAZY[name]}", __name__)
        return getattr(mod, name)
    raise AttributeError(f"module 'redgen' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
