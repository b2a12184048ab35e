"""Find and import generated kernels: `redgen.load("mean", target="cuda")`.

Generated modules live in `generated/<target>/<op>.py` (see export.py). They are
plain files that need only torch and triton, so loading one is an import; what
this module adds is discovery (which ops exist for which target) and an error
that names them when a lookup fails. Nothing here imports torch or triton until
a module is actually loaded.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from redgen import targets as _targets
from redgen.errors import UnknownKernel, did_you_mean

_LOCK = threading.Lock()


def generated_dir() -> Path:
    """The directory holding `<target>/<op>.py` modules.

    `REDGEN_GENERATED` overrides it; the default is the `generated/` folder next
    to the `redgen` package (the repository layout).
    """
    env = os.environ.get("REDGEN_GENERATED")
    if env:
        return Path(env).resolve()
    return Path(__file__).resolve().parents[2] / "generated"  # redgen/runtime/loader.py -> the folder beside redgen/


def available(root: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Map every target that has generated modules to its op names (sorted)."""
    root = generated_dir() if root is None else root
    out: dict[str, tuple[str, ...]] = {}
    if not root.is_dir():
        return out
    for tdir in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        ops = tuple(sorted(p.stem for p in tdir.glob("*.py") if not p.name.startswith(("_", "."))))
        if ops:
            out[tdir.name] = ops
    return out


def _describe(avail: dict[str, tuple[str, ...]]) -> str:
    if not avail:
        return "no generated modules found"
    return "; ".join(f"{t}: {', '.join(ops)}" for t, ops in sorted(avail.items()))


def load_module(op: str, target: str = "cuda", *, root: Path | None = None) -> ModuleType:
    """Import the generated module of `op` for `target`.

    Raises UnknownKernel (a LookupError) naming the ops and targets that exist.
    """
    for what, value, example in (("op", op, "'mean'"), ("target", target, "'cuda'")):
        if not isinstance(value, str):
            # A path or a module given for a name would otherwise fail deep inside the lookup.
            raise UnknownKernel(f"redgen.load: {what} must be a name such as {example}, not {type(value).__name__} "
                                f"{value!r} (a generated module's file is found by name under root=)")
    root = generated_dir() if root is None else Path(root).resolve()
    avail = available(root)
    if target not in avail:
        # Every target redgen builds for is named even before anything is generated for it,
        # so the message tells "not built yet" from "typo".
        targets = sorted(set(_targets.names()) | set(avail))
        raise UnknownKernel(
            f"no generated kernels for target '{target}' (targets: {', '.join(targets)}; "
            f"generated so far in {root}: {_describe(avail)})" + did_you_mean(target, targets)
        )
    if op not in avail[target]:
        raise UnknownKernel(
            f"no generated op '{op}' for target '{target}' (ops for {target}: {', '.join(avail[target])}; "
            f"all generated: {_describe(avail)}); build it with `redgen build specs/{op}.red --target {target}`"
            + did_you_mean(op, avail[target])
        )
    path = root / target / f"{op}.py"
    with _LOCK:  # two threads loading the same op must get the same module object
        # The repository's own `generated` package, when it is importable from this
        # root, is used as is so `from generated.cuda.mean import mean` and load()
        # share one module (one set of compiled kernels).
        try:
            pkg = importlib.import_module("generated")
            same = any(Path(p).resolve() == root for p in getattr(pkg, "__path__", []))
        except ImportError:
            same = False
        if same:
            return importlib.import_module(f"generated.{target}.{op}")
        # Anywhere else: import by path under a private name. Triton reads kernel
        # source with `inspect`, which works because the module is a real file.
        name = f"redgen._generated_{abs(hash(str(root)))}.{target}.{op}"
        mod = sys.modules.get(name)
        if mod is None:
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            try:
                spec.loader.exec_module(mod)
            except BaseException:
                del sys.modules[name]
                raise
        return mod


def load(op: str, target: str = "cuda", *, root: Path | None = None) -> Any:
    """The launcher function of a generated op, e.g. `load("mean")(x, dim=1)`.

    `op` is the spec's op name, `target` a backend ("cuda", "ascend"). The function
    follows torch's conventions: `op(x, [w, b,] dim=None, keepdim=False, *, params..., dtype=None)`.
    Raises UnknownKernel (a LookupError) listing the generated ops and targets.
    """
    mod = load_module(op, target, root=root)
    if target == "cuda":
        # A repeated signature's call served from C++ on a CUDA machine (elsewhere: nothing to do).
        from redgen.runtime import fast_route

        fast_route.bind(mod)
    fn = getattr(mod, op, None)
    if fn is None:
        raise UnknownKernel(f"{mod.__file__} defines no function '{op}'")
    return fn
