"""Run every generated ascend module under triton-ascend's own interpreter, on CPU.

    TRITON_INTERPRET=1 .venv-ascend/bin/python scripts/ascend_interpret.py generated/ascend

The venv is the one scripts/ascend_check.sh builds (triton-ascend 3.2.0, not upstream
triton; numpy < 2.3). For each module it calls the launcher on small inputs -- rows
(3, 300) and, when the op has a batch axis after the reduce axis, (2, 300, 3) --
in f32 and bf16, and

- compares every output with a float64 torch reference (the op's torch meaning, at
  redgen.tolerances' per-dtype tolerances);
- checks the first row bitwise against the same row computed alone (batch 1), and with
  the grid forced to 1 persistent program (the module's CORES).

cross_entropy and nll_loss take targets: rows of two chunks with a target in each (check_gather).

It needs torch and triton-ascend, and imports only redgen.tolerances (torch only)
from this checkout: no lark, z3 or jinja2. Exit 1 on any failure.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TRITON_INTERPRET", "1")
os.environ.setdefault("REDGEN_ASCEND_CORES", "40")  # `cores auto` has no NPU to ask here

import torch  # noqa: E402

from redgen.tolerances import assert_accurate  # noqa: E402

N = 300


def _ln(x, w, b, d):
    m = x.mean(d, keepdim=True)
    v = ((x - m) ** 2).mean(d, keepdim=True)
    return ((x - m) / torch.sqrt(v + 1e-5)) * w + b, m, 1 / torch.sqrt(v + 1e-5)


def _rstd(x, d):
    return torch.rsqrt((x**2).mean(d, keepdim=True) + 1e-6)


# op -> float64 reference of its outputs for inputs xs reduced over dim d (the launcher's
# conventions: keepdim False for reductions, the norms' row statistics kept as size 1).
REFERENCE = {
    "sum": lambda xs, d: (xs[0].sum(d),),
    "mean": lambda xs, d: (xs[0].mean(d),),
    "amax": lambda xs, d: (xs[0].amax(d),),
    "amin": lambda xs, d: (xs[0].amin(d),),
    "argmax": lambda xs, d: (xs[0].argmax(d),),
    "argmin": lambda xs, d: (xs[0].argmin(d),),
    "logsumexp": lambda xs, d: (xs[0].logsumexp(d),),
    "logsumexp_held": lambda xs, d: (xs[0].logsumexp(d),),  # logsumexp's short rows (specs/logsumexp.red: short)
    "var": lambda xs, d: (xs[0].var(d),),
    "std": lambda xs, d: (xs[0].std(d),),
    "var_held": lambda xs, d: (xs[0].var(d),),  # var's short rows (specs/var.red: short)
    "std_held": lambda xs, d: (xs[0].std(d),),
    "softmax": lambda xs, d: (xs[0].softmax(d),),
    "log_softmax": lambda xs, d: (xs[0].log_softmax(d),),
    "softmax_held": lambda xs, d: (xs[0].softmax(d),),  # softmax's short rows (specs/softmax.red: short)
    "log_softmax_held": lambda xs, d: (xs[0].log_softmax(d),),
    "rms_norm": lambda xs, d: (xs[0] * _rstd(xs[0], d) * xs[1],),
    "layer_norm": lambda xs, d: _ln(xs[0], xs[1], xs[2], d),
    "rms_norm_rstd": lambda xs, d: (xs[0] * _rstd(xs[0], d) * xs[1], _rstd(xs[0], d)),
    "nansum": lambda xs, d: (torch.nansum(xs[0], d),),
    "vector_norm": lambda xs, d: (torch.linalg.vector_norm(xs[0], 2, d),),
}

# Modules whose launchers take other arguments than (inputs..., dim): contractions, attention,
# gathers by an integer input, several outputs of other shapes, fp8 outputs. Here they are
# compiled to the adapter IR only (scripts/ascend_compile.py); their values and bitwise
# invariance are checked under upstream Triton's interpreter (tests/test_matmul.py,
# test_attention.py, test_language.py). A new spec not listed and without a REFERENCE fails.
OTHER_CHECKS = {"matmul", "addmm", "bmm", "linear", "attention", "add_rms_norm",
                "fp8_quant", "fp8_quant_e5m2", "mean_2axes"}  # mean_2axes: no `dim` (tests/test_multi_axis.py)
# Gathers by an integer input (x, t): their own cases below (check_gather).
GATHERS = {
    "cross_entropy": lambda x, t: torch.nn.functional.cross_entropy(x, t, reduction="none"),
    "nll_loss": lambda x, t: torch.nn.functional.nll_loss(x, t, reduction="none"),
}
GATHER_N = 4096 + 37  # two chunks: the target in either (their partials are direct: plan.Plan.direct)
# a row's target (the second ignored: loss 0), at the chunks' edges
GATHER_TARGETS = [5, -100, 4096, GATHER_N - 1, 4095, 4100]


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"_redgen_ascend_interp_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _outputs(out) -> tuple:
    return out if isinstance(out, tuple) else (out,)


def _on_one_program(mod, call):
    """`call()` with the grid forced to one persistent program (the module's CORES)."""
    default = mod.CORES
    mod.CORES = 1
    try:
        return call()
    finally:
        mod.CORES = default


def _case(mod, fn, ref_fn, xs, d, dtype) -> None:
    """One call against the reference, then row 0 alone and one persistent program, bitwise."""
    got = _outputs(fn(*xs, dim=d))
    want = ref_fn([x.double() for x in xs], d)
    for g, w in zip(got, want, strict=True):
        if w.dtype == torch.int64:
            assert torch.equal(g, w), "indices differ from the reference"
        else:
            assert_accurate(g, w.reshape(g.shape), dtype)
    one = _outputs(fn(xs[0][:1], *xs[1:], dim=d))
    grid1 = _outputs(_on_one_program(mod, lambda: fn(*xs, dim=d)))
    for g, o, g1 in zip(got, one, grid1, strict=True):
        assert torch.equal(g[:1], o), "row 0 alone differs bitwise from row 0 in the batch"
        assert torch.equal(g, g1), "one persistent program differs bitwise from the natural grid"


def check_gather(mod) -> list[str]:
    """Rows [4, GATHER_N] and columns [2, GATHER_N, 3] (dim=1), targets in either chunk, one ignored
    (loss 0): against float64 torch, and bitwise row 0 alone and one persistent program."""
    op = mod.CERTIFICATE["op"]
    fn, ref = getattr(mod, op), GATHERS[op]
    errors = []
    for shape, dtype in itertools.product([(4, GATHER_N), (2, GATHER_N, 3)], (torch.float32, torch.bfloat16)):
        gen = torch.Generator().manual_seed(0)
        x = torch.randn(shape, generator=gen).to(dtype)
        tshape = (shape[0],) + shape[2:]
        t = torch.tensor(GATHER_TARGETS[: math.prod(tshape)]).reshape(tshape)
        where = f"{op} {tuple(shape)} dim=1 {dtype}"
        try:
            got = fn(x, t, dim=1)
            assert_accurate(got, ref(x.double(), t), dtype)
            assert got.view(-1)[1] == 0, "an ignored target's loss is not 0"
            assert torch.equal(fn(x[:1], t[:1], dim=1), got[:1]), "row 0 alone differs bitwise from row 0 in the batch"
            assert torch.equal(_on_one_program(mod, lambda x=x, t=t: fn(x, t, dim=1)), got), \
                "one persistent program differs bitwise from the natural grid"
        except Exception as e:  # noqa: BLE001 - reported with the case
            errors.append(f"{where}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    return errors


def check(mod) -> list[str]:
    op = mod.CERTIFICATE["op"]
    if op in GATHERS:
        return check_gather(mod)
    fn = getattr(mod, op)
    ref_fn = REFERENCE.get(op)
    if ref_fn is None:
        return [f"{op}: no float64 reference in scripts/ascend_interpret.py"]
    n_in = len(mod._INPUT_DTYPES)
    after = "K" in mod.CERTIFICATE["independent_of"] and op not in ("rms_norm", "rms_norm_rstd", "layer_norm")
    shapes = [((3, N), -1)] + ([((2, N, 3), 1)] if after else [])
    # A module with short rows (`short` in its spec) gives rows of N elements to another op's
    # module: it runs a second time with SHORT_MAX = 0, so that its own kernels run here too.
    short = getattr(mod, "SHORT_MAX", None)
    errors = []
    for own, (shape, d), dtype in itertools.product([False, True] if short else [False], shapes,
                                                    (torch.float32, torch.bfloat16)):
        gen = torch.Generator().manual_seed(0)
        xs = [torch.randn(shape, generator=gen).to(dtype)]
        xs += [torch.randn((N,), generator=gen).to(dtype) for _ in range(n_in - 1)]
        where = f"{op} {tuple(shape)} dim={d} {dtype}" + (" SHORT_MAX=0" if own else "")
        if own:
            mod.SHORT_MAX = 0
        try:
            _case(mod, fn, ref_fn, xs, d, dtype)
        except Exception as e:  # noqa: BLE001 - reported with the case
            errors.append(f"{where}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        finally:
            if own:
                mod.SHORT_MAX = short
    return errors


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default="generated/ascend")
    args = ap.parse_args(argv)
    import triton

    if not (Path(triton.__file__).parent / "backends" / "ascend").is_dir():
        print(f"error: {triton.__file__} is not triton-ascend (no backends/ascend)", file=sys.stderr)
        return 1
    files = sorted(p for p in Path(args.dir).glob("*.py") if p.name != "__init__.py")
    failed = 0
    skipped = [p for p in files if p.stem in OTHER_CHECKS]
    for path in skipped:
        print(f"{path.stem}: skipped here (its checks: adapter-IR compile, upstream interpreter tests)")
    files = [p for p in files if p.stem not in OTHER_CHECKS]
    for path in files:
        t0 = time.time()
        errors = check(_load(path))
        failed += bool(errors)
        status = "ok" if not errors else "FAILED"
        print(f"{path.stem}: {status} under triton-ascend's interpreter ({time.time() - t0:.1f} s)")
        for e in errors:
            print(f"  {e}")
    print(f"{len(files) - failed}/{len(files)} ascend modules match the float64 reference and are bitwise "
          f"invariant under triton-ascend's interpreter")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
