"""Subprocess side of redgen.empirical (run with TRITON_INTERPRET=1)."""

from __future__ import annotations

import importlib
import json
import os
import sys

import torch

_DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
# SPLIT_BELOW values that force a path: 0 -> always fused, huge -> split whenever >1 chunk.
_PATHS = {"natural": None, "fused": 0, "split": 1 << 62}


def _inputs(spec: dict, dtype: torch.dtype, b: int, k: int, gen: torch.Generator) -> list[torch.Tensor]:
    size = {spec["reduce"]: spec["N"], spec["before"]: b, spec["after"]: k}
    return [_input([size[a] for a in i["axes"]], i["dtypes"], dtype, spec["N"], gen) for i in spec["inputs"]]


def _input(shape: list[int], dtypes: list[str], dtype: torch.dtype, n: int, gen: torch.Generator) -> torch.Tensor:
    if dtypes == ["i64"]:  # positions along the reduce axis (gather indices): every one valid
        return torch.randint(0, max(n, 1), shape, generator=gen)
    return torch.randn(shape, generator=gen).to(dtype)


def _equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality; fp8 tensors (no torch.equal on CPU) compared as their bytes."""
    if a.dtype.itemsize == 1 and a.dtype.is_floating_point:
        return torch.equal(a.view(torch.uint8), b.view(torch.uint8))
    return torch.equal(a, b)


def _rows(spec: dict, xs: list[torch.Tensor], index) -> list[torch.Tensor]:
    """Select batch rows of every input that has the batch axis."""
    return [t[index] if spec["before"] in ix["axes"] else t for t, ix in zip(xs, spec["inputs"], strict=True)]


class _Runner:
    """Calls the op with one module knob forced: cuda's SPLIT_BELOW (fused/split path) or
    ascend's CORES (the grid: min(row blocks, CORES) persistent programs)."""

    def __init__(self, module, spec: dict):
        self.module, self.spec = module, spec
        self.fn = getattr(module, spec["op"])
        if "grids" in spec:  # ascend
            self.knob = "CORES"
            self.paths = {"natural": None, **{f"grid{g}": g for g in spec["grids"]}}
            self.ref, self.alt = "natural", tuple(p for p in self.paths if p != "natural")
            self.forced = tuple(self.paths)
        else:
            self.knob, self.paths = "SPLIT_BELOW", _PATHS
            self.ref, self.alt, self.forced = "fused", ("split",), ("natural", "fused", "split")
        self.default = getattr(module, self.knob)
        self.calls = 0

    def __call__(self, xs, path="natural"):
        forced = self.paths[path]
        setattr(self.module, self.knob, self.default if forced is None else forced)
        try:
            y = self.fn(*xs, dim=self.spec["inputs"][0]["axes"].index(self.spec["reduce"]))
        finally:
            setattr(self.module, self.knob, self.default)
        self.calls += 1
        return y if isinstance(y, tuple) else (y,)


def _same(a, b) -> bool:
    return all(_equal(x, y) for x, y in zip(a, b, strict=True))


def check(run: _Runner, spec: dict) -> str | None:
    """None when every comparison holds, else what differed."""
    sizes = spec["batch_sizes"]
    for dname in [d for d in ("f32", "bf16", "f16") if d in spec["inputs"][0]["dtypes"]]:
        for k in spec["K"]:
            where = f"({dname}, K={k})"
            full = _inputs(spec, _DT[dname], max(sizes), k, torch.Generator().manual_seed(spec["seed"]))
            ref = run(full, run.ref)
            if not _same(ref, run(full, run.ref)):
                return f"run-to-run: two calls on the same input differ {where}"
            if not spec["before"]:
                for alt in run.alt:
                    if not _same(ref, run(full, alt)):
                        return f"{alt} and {run.ref} paths differ {where}"
                continue
            # f32 forces every path (cuda: fused and split; ascend: each grid) at every
            # batch size; other dtypes take the natural one.
            paths = run.forced if dname == "f32" else ("natural",)
            for b in sizes:
                for path in paths:
                    got = run(_rows(spec, full, slice(0, b)), path)
                    if not all(_equal(g, r[:b]) for g, r in zip(got, ref, strict=True)):
                        return f"batch {b} ({path} path) vs batch {max(sizes)}: shared rows differ {where}"
            for pos in spec["positions"]:
                perm = list(range(max(sizes)))
                perm[0], perm[pos] = perm[pos], perm[0]
                got = run(_rows(spec, full, perm))
                if not all(_equal(g[pos], r[0]) for g, r in zip(got, ref, strict=True)):
                    return f"row 0 moved to batch position {pos} gives other bits {where}"
    return None


def main() -> None:
    module, spec = importlib.import_module(sys.argv[1]), json.loads(sys.argv[2])
    if getattr(module, "CORES", 0) is None:
        # `cores auto` has no device to ask under the interpreter; its natural grid here is
        # the A2 budget (every forced grid is compared with it anyway).
        os.environ.setdefault("REDGEN_ASCEND_CORES", "40")
    run = _Runner(module, spec)
    failure = check(run, spec)
    if failure:
        print(json.dumps({"status": "failed", "detail": failure}))
        return
    result = {
        "status": "passed", "where": "triton interpreter (CPU)", "batch_sizes": spec["batch_sizes"],
        "positions": spec["positions"], "paths": list(run.paths), "N": spec["N"], "K": spec["K"],
        "dtypes": [d for d in ("f32", "bf16", "f16") if d in spec["inputs"][0]["dtypes"]],
        "calls": run.calls, "seed": spec["seed"],
    }
    if "grids" in spec:
        result["grids"] = spec["grids"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
