"""Subprocess side of redgen.verify.empirical (run with TRITON_INTERPRET=1).

Also used by the differential test (tests/test_differential.py), which runs `check`
in-process on modules it emitted itself.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import sys

import torch

from redgen.check import check as check_spec
from redgen.parse import parse
from redgen.reference import evaluate
from redgen.tolerances import TOLERANCE, assert_accurate

_DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def _always(*sizes) -> bool:
    """Stands in for a module's _needs_int64 on the "wide-" paths: int64 index arithmetic
    (WIDE, which a cuda launcher takes only at sizes near 2**31) forced on at small sizes,
    where it must give the int32 kernels' bits."""
    return True


def _input(shape: list[int], dtypes: list[str], dtype: torch.dtype, n: int, gen: torch.Generator) -> torch.Tensor:
    if dtypes == ["i64"]:  # positions along the reduce axis (gather indices): every one valid
        return torch.randint(0, max(n, 1), shape, generator=gen)
    return torch.randn(shape, generator=gen).to(dtype)


def _equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality; fp8 tensors (no torch.equal on CPU) compared as their bytes."""
    if a.dtype.itemsize == 1 and a.dtype.is_floating_point:
        return torch.equal(a.view(torch.uint8), b.view(torch.uint8))
    return torch.equal(a, b)


class _Runner:
    """Calls the op with one module knob forced to each value (the target's, from the case:
    cuda's SPLIT_BELOW, fused/split path; ascend's CORES, min(row blocks, CORES) programs)."""

    def __init__(self, module, spec: dict):
        self.module, self.spec = module, spec
        self.fn = getattr(module, spec["op"])
        self.knob = spec["knob"]
        self.paths = {"natural": None, **spec["paths"]}
        if hasattr(module, "_needs_int64"):  # each forced path again with int64 indices
            self.paths.update({f"wide-{p}": v for p, v in spec["paths"].items()})
        self.default = getattr(module, self.knob)
        # Knobs a forced path sets (the row kernel off, one tile at a time): knob -> (forced, own).
        self.off = {k: (v, getattr(module, k)) for k, v in spec.get("off", {}).items() if hasattr(module, k)}
        # Kernel forms (Target.empirical_forms) this module has every knob of: name -> {knob: value}.
        self.forms = {name: knobs for name, knobs in spec.get("forms", {}).items()
                      if all(hasattr(module, k) for k in knobs)}
        # The form of short rows' walks (Target.empirical_short_form), name -> {knob: value}, and the
        # longest reduce length the natural call walks them at (the module's own value of the knob).
        self.short_forms, self.short_max = {}, 0
        if "short_form" in spec and hasattr(module, spec["short_form"][1]):
            name, knob, value = spec["short_form"]
            self.short_forms, self.short_max = {name: {knob: value}}, getattr(module, knob)
        # Forms of the cols kernels' walks (Target.empirical_cols_forms) this module has every knob of.
        self.cols_forms = {name: knobs for name, knobs in spec.get("cols_forms", {}).items()
                           if all(hasattr(module, k) for k in knobs)}
        # A forced value equal to the module's own (ascend: grid40 when CORES = 40) is the
        # natural call itself, the same launch on the same data: it runs once, as natural.
        self.same = tuple(p for p in self.paths if p != "natural" and not p.startswith("wide-")
                          and self.paths[p] == self.default)
        self.forced = tuple(p for p in self.paths if p != "natural" and p not in self.same)
        self.calls = 0
        # Where the kernels run: the interpreter on CPU tensors, or a GPU (REDGEN_EMPIRICAL_DEVICE
        # set by redgen.verify.empirical when one is present). Inputs are drawn on the CPU either way
        # (the same data), outputs come back to it for the comparisons.
        self.device = os.environ.get("REDGEN_EMPIRICAL_DEVICE", "cpu")

    def __call__(self, xs, path="natural"):
        form = self.forms.get(path) or self.short_forms.get(path) or self.cols_forms.get(path)
        if form:
            own = {k: getattr(self.module, k) for k in form}
            for k, v in form.items():
                setattr(self.module, k, v)
            try:
                return self(xs)
            finally:
                for k, v in own.items():
                    setattr(self.module, k, v)
        forced = self.paths[path]
        setattr(self.module, self.knob, self.default if forced is None else forced)
        for k, (value, _) in self.off.items() if forced is not None else ():
            setattr(self.module, k, value)
        wide = path.startswith("wide-")
        if wide:
            needs_int64, self.module._needs_int64 = self.module._needs_int64, _always
        # A spec over several reduce axes fixes its dims (no `dim` argument).
        dim = {} if "reduce_axes" in self.spec else {"dim": self.spec["inputs"][0]["axes"].index(self.spec["reduce"])}
        try:
            y = self.fn(*(x.to(self.device) for x in xs), **dim)
        finally:
            setattr(self.module, self.knob, self.default)
            for k, (_, own) in self.off.items():
                setattr(self.module, k, own)
            if wide:
                self.module._needs_int64 = needs_int64
        self.calls += 1
        return tuple(t.cpu() for t in (y if isinstance(y, tuple) else (y,)))


class _Case:
    """Inputs of one shape and how to take batch slices of them and of the outputs."""

    def __init__(self, spec: dict, op, dtype: torch.dtype, n: int, b: int, k: int, seed: int):
        self.spec, self.op = spec, op
        size = {spec["reduce"]: n, spec["before"]: b, spec["after"]: k}
        if "reduce_axes" in spec:  # `reduce N1, N2 as N`: n = N1 * N2, N2 = spec["inner"]
            inner = spec["inner"][str(n)]
            size.update(zip(spec["reduce_axes"], (n // inner, inner), strict=True))
        gen = torch.Generator().manual_seed(seed)
        self.xs = [_input([size[a] for a in i["axes"]], i["dtypes"], dtype, n, gen) for i in spec["inputs"]]
        # The launcher's outputs: ops with outputs over the reduce axis keep it (size 1) in the others.
        keep = [a for a in spec["inputs"][0]["axes"]]
        self.out_axes = [list(o.axes) if (o.mapped or not op.mapped) else keep for o in op.outputs]

    def sliced(self, axis: str, index) -> list[torch.Tensor]:
        """Every input with batch `axis` indexed by `index` (a slice or a permutation)."""
        out = []
        for t, inp in zip(self.xs, self.spec["inputs"], strict=True):
            if axis in inp["axes"]:
                d = inp["axes"].index(axis)
                t = t[(slice(None),) * d + (index,)]
            out.append(t)
        return out

    def out_slice(self, ys, axis: str, index) -> list[torch.Tensor]:
        out = []
        for y, axes in zip(ys, self.out_axes, strict=True):
            if axis in axes:
                d = axes.index(axis)
                y = y[(slice(None),) * d + (index,)]
            out.append(y)
        return out


def _same(a, b) -> bool:
    return all(_equal(x, y) for x, y in zip(a, b, strict=True))


def _accurate(op, case: _Case, ys, dname: str) -> str | None:
    # Launchers of ops with outputs over the reduce axis keep it (size 1) in the reduced ones.
    ref = evaluate(op, {i.name: x for i, x in zip(op.inputs, case.xs, strict=True)}, keepdim=bool(op.mapped))
    for o, y in zip(op.outputs, ys, strict=True):
        want = ref[o.name]
        try:
            if want.dtype == torch.int64:
                if not torch.equal(y, want):
                    return f"output {o.name}: indices differ from the reference"
            elif y.dtype.itemsize == 1:  # an fp8 output: the reference rounded to it, one fp8 step apart
                torch.testing.assert_close(y.double(), want.to(y.dtype).double(), equal_nan=True,
                                           rtol=torch.finfo(y.dtype).eps, atol=TOLERANCE[_DT[dname]])
            else:
                assert_accurate(y, want, _DT[dname])
        except AssertionError as e:
            return f"output {o.name} vs the float64 reference: {str(e).splitlines()[0]}"
    return None


def check(run: _Runner, spec: dict, op) -> tuple[str | None, int]:
    """(None, comparisons) when every comparison holds, else (what differed, comparisons)."""
    sizes, after = spec["batch_sizes"], spec["after_sizes"]
    big_b, big_k = max(sizes), max(after)
    ns = spec["N"]
    main, prime = ns["chunk_tail"], ns["prime"]
    compared = 0
    for di, dname in enumerate(d for d in ("f32", "bf16", "f16") if d in spec["inputs"][0]["dtypes"]):
        dt = _DT[dname]
        first = di == 0
        # f32 runs every reduce length and every forced path; the other dtypes the main length.
        lengths = list(ns.values()) if first else [main]
        ks = sorted({1, big_k})
        for n in lengths:
            for k in ks:
                if k > 1 and n == ns["chunks"] and n != main:
                    continue  # the K > 1 shape at several chunks adds time, not coverage
                where = f"({dname}, N={n}, {spec['after'] or 'K'}={k})"
                case = _Case(spec, op, dt, n, big_b, k, spec["seed"] + n + k)
                full = run(case.xs)
                bad = _accurate(op, case, full, dname)
                compared += 1
                if bad:
                    return f"{bad} {where}", compared
                if first and n == main and k == 1 and not _same(full, run(case.xs)):
                    return f"run-to-run: two calls on the same input differ {where}", compared
                # The kernel forms (K == 1), the short rows' form (up to its length) and the cols walks' (K > 1).
                forms = [*(run.forms if k == 1 else ()), *(run.short_forms if n <= run.short_max else ()),
                         *(run.cols_forms if k > 1 else ())]
                for form in forms if first else ():
                    compared += 1
                    if not _same(full, run(case.xs, form)):
                        return f"the {form} form and the natural call differ {where}", compared
                if n not in (main, prime) or (not first and n != main):
                    continue
                if spec["before"]:
                    for b in sizes[:-1] if first else (1, 3):
                        paths = ["natural"]
                        if first and n == main and b in (1, 7):
                            # (the int64 paths at one batch of several rows: they change no order)
                            paths += [p for p in run.forced if b == 7 or not p.startswith("wide-")]
                        for path in paths:
                            got = run(case.sliced(spec["before"], slice(0, b)), path)
                            compared += 1
                            if not _same(got, case.out_slice(full, spec["before"], slice(0, b))):
                                return (f"batch {spec['before']}={b} ({path} path) vs {big_b}: shared rows "
                                        f"differ {where}"), compared
                elif first and n == main:
                    for path in run.forced:
                        compared += 1
                        if not _same(full, run(case.xs, path)):
                            return f"{path} and natural paths differ {where}", compared
                if first and n == main and spec["after"] and k == big_k:
                    for kk in after[:-1]:
                        got = run(case.sliced(spec["after"], slice(0, kk)))
                        compared += 1
                        if not _same(got, case.out_slice(full, spec["after"], slice(0, kk))):
                            return f"batch {spec['after']}={kk} vs {big_k}: shared rows differ {where}", compared
                if first and n == main and spec["before"]:
                    for pos in spec["positions"][1:]:
                        perm = list(range(big_b))
                        perm[0], perm[pos] = perm[pos], perm[0]
                        got = run(case.sliced(spec["before"], perm))
                        compared += 1
                        moved = case.out_slice(got, spec["before"], pos)
                        if not _same(moved, case.out_slice(full, spec["before"], 0)):
                            return f"row 0 moved to batch position {pos} gives other bits {where}", compared
    return None, compared


def lean_interpreter() -> list[str]:
    """Drop two pieces of the Triton interpreter's per-operation work that cannot change a
    result, and say which (the certificate records it). They were half of its CPU time.

    - Overflow sanitizing: with `sanitize_overflow` every int32 add/sub/mul is redone in int64
      and compared with the int32 range, for a device_assert that is a no-op unless
      `debug` is set (triton.language.semantic.device_assert returns first): dead work.
      Skipped only when debug is off, so it stays on wherever it could raise.
    - Re-patching triton.language for every device-function call (_tree_sum, _max...,
      called in every loop iteration): the launch that runs it patched the same modules with
      the same interpreter builtins already, and the nested call never restores its patch.
      Skipped only for a function of the module of the launched kernel (same globals).
    Anything not as expected in the installed triton: nothing is changed.
    """
    from triton.runtime import interpreter as interp

    done = []
    builder = getattr(interp, "interpreter_builder", None)
    opts = getattr(builder, "options", None)
    if opts is not None and not getattr(opts, "debug", True) and getattr(opts, "sanitize_overflow", False):
        builder.options = dataclasses.replace(opts, sanitize_overflow=False)
        done.append("int32 overflow sanitizing off (its device_assert is a no-op without debug)")
    patch = getattr(interp, "_patch_lang", None)
    if patch is not None and getattr(patch, "__name__", "") == "_patch_lang":
        active: list = []  # the globals of the kernel being launched, while its patch is in place

        class _Outer:
            def __init__(self, scope):
                self.scope = scope

            def restore(self):
                active.clear()
                self.scope.restore()

        class _Same:
            def restore(self):
                pass

        def lean_patch(fn):
            if active and fn.__globals__ is active[0]:
                return _Same()
            scope = patch(fn)
            if active:  # another module's function: patched (and left patched) as triton does
                return scope
            active.append(fn.__globals__)
            return _Outer(scope)

        lean_patch.__name__ = "lean_patch_lang"
        interp._patch_lang = lean_patch
        done.append("a device function of the launched kernel's module reuses the launch's language patch")
    return done


def load_op(spec: dict):
    """The spec's typed IR, from its text (the reference reads it; nothing of the plan)."""
    return check_spec(parse(spec["source"], spec["path"]))


def _where(device: str) -> str:
    if device == "cpu":
        return "triton interpreter (CPU)"
    return f"{torch.cuda.get_device_name()} (triton {importlib.import_module('triton').__version__})"


def main() -> None:
    module, spec = importlib.import_module(sys.argv[1]), json.loads(sys.argv[2])
    if getattr(module, "CORES", 0) is None and "cores_env" in spec:
        # `cores auto` has no device to ask under the interpreter; its natural grid here is
        # the target's default budget (every forced grid is compared with it anyway).
        name, cores = spec["cores_env"]
        os.environ.setdefault(name, str(cores))
    if getattr(module, "SHORT_MAX", 0):
        # The rows this op computes itself, at every length: its short op's module is checked
        # by its own build (and is not beside this module here).
        module.SHORT_MAX = 0
    op = load_op(spec)
    lean = lean_interpreter() if os.environ.get("TRITON_INTERPRET") == "1" else []
    run = _Runner(module, spec)
    failure, compared = check(run, spec, op)
    if failure:
        print(json.dumps({"status": "failed", "detail": failure}))
        return
    dtypes = [d for d in ("f32", "bf16", "f16") if d in spec["inputs"][0]["dtypes"]]
    result = {
        "status": "passed", "where": _where(run.device), "batch_sizes": spec["batch_sizes"],
        "after_sizes": spec["after_sizes"], "positions": spec["positions"],
        "paths": [*run.paths, *run.forms, *run.short_forms, *run.cols_forms],
        "N": spec["N"], "dtypes": dtypes, "calls": run.calls, "seed": spec["seed"],
        "reference": ("every output vs redgen.reference (float64 evaluation of the typed IR) at "
                      + ", ".join(f"{d} {TOLERANCE[_DT[d]]:g}" for d in dtypes) + f"; {compared} comparisons"),
    }
    if "grids" in spec:
        result["grids"] = spec["grids"]
    if run.same:
        result["same_as_natural"] = list(run.same)
    if lean:
        result["interpreter"] = lean
    if "reduce_axes" in spec:  # the merged lengths above ran as these (N1, N2)
        result["reduce_axes"] = spec["reduce_axes"]
        result["reduce_shapes"] = {k: [n // spec["inner"][str(n)], spec["inner"][str(n)]] for k, n in spec["N"].items()}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
