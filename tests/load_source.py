"""Import a generated module from its source text, as a file (Triton's JIT reads its kernels' source)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def load_source(directory: Path, name: str, source: str) -> ModuleType:
    file = directory / f"{name}.py"
    file.write_text(source)
    spec = importlib.util.spec_from_file_location(name, file)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
