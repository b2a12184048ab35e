"""The empirical half of verifying an attention module: run it under the interpreter and compare bits.

Host side (`run_attention_empirical`) writes the emitted source to a temp module and
runs this file as a subprocess with TRITON_INTERPRET=1 (`main`, the worker). The worker
builds a varlen batch (a sequence with two chunks and a ragged tail, a decode-like one,
a short prefill; GQA 4 query / 2 KV heads) and checks, bitwise:
- run to run;
- every sequence alone, inside the batch, and at another batch position; dense vs varlen layout;
- (causal) prefill vs decode: row p of a prefill equals the decode step at p;
- the launch paths: cuda's fused vs split (SPLIT_BELOW forced), ascend's grids (CORES forced);
and, against a float64 reference of the spec's meaning, f32 accuracy at 1e-4.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from redgen import targets
from redgen.errors import EmpiricalMismatch

HEADS, KV_HEADS, DIM = 4, 2, 16
SEED = 0


def case(plan) -> dict:
    chunk = plan.order.chunk.eval({})
    long = min(chunk, 4096) + 37 if chunk < (1 << 20) else 300
    out = {"op": plan.op.name, "kv": [long, 5, 70], "q": [long, 1, 3], "causal": plan.op.causal,
           "heads": HEADS, "kv_heads": KV_HEADS, "dim": DIM, "seed": SEED,
           "dtypes": [d for d in ("f32", "bf16") if d in plan.op.q.dtypes],
           "positions": sorted({0, 63, 64, long // 2, long - 1})}
    t = targets.get(plan.target)
    if t.persistent:  # one program for everything, a few looping ones, the full cube-core budget
        out["grids"] = [1, 3, t.cube_cores]
    else:  # the target's forced paths (cuda: always fused; split when more than one chunk)
        out["knob"], out["settings"] = t.empirical_knob, [v for _, v in t.empirical_paths]
    return out


def run_attention_empirical(plan, source: str) -> dict:
    spec = case(plan)
    with tempfile.TemporaryDirectory() as d:
        mod = Path(d) / f"_redgen_check_{plan.op.name}.py"
        mod.write_text(source)
        env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": os.pathsep.join([d, *sys.path])}
        proc = subprocess.run([sys.executable, "-m", "redgen.verify.attention_empirical", mod.stem, json.dumps(spec)],
                              env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
        raise EmpiricalMismatch(f"{plan.op.name}: the empirical check failed:\n" + "\n".join(tail), None, None)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["status"] != "passed":
        raise EmpiricalMismatch(f"{plan.op.name}: {result['detail']}", plan.order.where("chunk"), plan.op.source)
    return result


# --- worker (TRITON_INTERPRET=1) ----------------------------------------------------------------
def reference(q, k, v, causal: bool, scale: float | None = None):
    """float64 attention of one sequence: q[Lq, H, D], k/v[Lk, G, D] -> [Lq, H, D]."""
    import torch

    lq, h, d = q.shape
    lk, g, _ = k.shape
    k = k.double().repeat_interleave(h // g, dim=1)
    v = v.double().repeat_interleave(h // g, dim=1)
    s = torch.einsum("qhd,khd->hqk", q.double(), k) * (d ** -0.5 if scale is None else scale)
    if causal:
        i = torch.arange(lq)[:, None]
        j = torch.arange(lk)[None, :]
        s = s.masked_fill(j > lk - lq + i, float("-inf"))
    return torch.einsum("hqk,khd->qhd", s.softmax(-1), v)


def _check(module, spec: dict) -> str | None:
    import torch

    fn = getattr(module, spec["op"])
    dts = {"f32": torch.float32, "bf16": torch.bfloat16}
    knob = "CORES" if "grids" in spec else spec["knob"]
    settings = spec["grids"] if "grids" in spec else spec["settings"]
    default = getattr(module, knob)

    def call(qs, ks, vs, setting=None):
        setattr(module, knob, default if setting is None else setting)
        try:
            cu_q = torch.tensor([0, *torch.tensor([len(x) for x in qs]).cumsum(0).tolist()])
            cu_k = torch.tensor([0, *torch.tensor([len(x) for x in ks]).cumsum(0).tolist()])
            o = fn(torch.cat(qs), torch.cat(ks), torch.cat(vs), cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
        finally:
            setattr(module, knob, default)
        return [o[a:b] for a, b in zip(cu_q[:-1].tolist(), cu_q[1:].tolist(), strict=True)]

    gen = torch.Generator().manual_seed(spec["seed"])
    h, g, d = spec["heads"], spec["kv_heads"], spec["dim"]
    for name in spec["dtypes"]:
        dt = dts[name]
        qs = [torch.randn(n, h, d, generator=gen).to(dt) for n in spec["q"]]
        ks = [torch.randn(n, g, d, generator=gen).to(dt) for n in spec["kv"]]
        vs = [torch.randn(n, g, d, generator=gen).to(dt) for n in spec["kv"]]
        ref = call(qs, ks, vs)
        if not all(torch.equal(a, b) for a, b in zip(ref, call(qs, ks, vs), strict=True)):
            return f"run-to-run: two calls on the same input differ ({name})"
        for s in settings:
            if not all(torch.equal(a, b) for a, b in zip(ref, call(qs, ks, vs, s), strict=True)):
                return f"{knob}={s} gives other bits than the natural launch ({name})"
        for b in range(len(qs)):
            alone = call([qs[b]], [ks[b]], [vs[b]])[0]
            if not torch.equal(alone, ref[b]):
                return f"sequence {b} alone vs inside a batch of {len(qs)}: other bits ({name})"
        b = len(qs) - 1
        setattr(module, knob, default)
        dense = fn(qs[b][None], ks[b][None], vs[b][None])[0]
        if not torch.equal(dense, ref[b]):
            return f"the dense layout gives other bits than the varlen one ({name})"
        moved = call(qs[::-1], ks[::-1], vs[::-1])[::-1]
        if not all(torch.equal(a, b) for a, b in zip(ref, moved, strict=True)):
            return f"the batch in reverse order gives other bits ({name})"
        lk, lq = spec["kv"][0], spec["q"][0]
        for p in spec["positions"]:
            i = p - (lk - lq)
            upto = p + 1 if spec["causal"] else lk
            step = call([qs[0][i:i + 1]], [ks[0][:upto]], [vs[0][:upto]])[0]
            if not torch.equal(step[0], ref[0][i]):
                return f"prefill row at position {p} vs the decode step at {p}: other bits ({name})"
        if name == "f32":
            for b in range(len(qs)):
                want = reference(qs[b], ks[b], vs[b], spec["causal"])
                if not torch.allclose(ref[b].double(), want, rtol=1e-4, atol=1e-4):
                    err = (ref[b].double() - want).abs().max().item()
                    return f"sequence {b} differs from the float64 reference by {err:.3g} (f32, tolerance 1e-4)"
    return None


def main() -> None:
    import importlib

    from redgen.verify.interpreter_dot import DOT_MODEL, install

    install()  # before the module's kernels run: numpy's BLAS would order each tile's sums by its shape
    module, spec = importlib.import_module(sys.argv[1]), json.loads(sys.argv[2])
    failure = _check(module, spec)
    if failure:
        print(json.dumps({"status": "failed", "detail": failure}))
        return
    result = {"status": "passed", "where": f"triton interpreter (CPU), {DOT_MODEL}",
              "batch_sizes": [1, len(spec["q"])], "positions": spec["positions"], "dtypes": spec["dtypes"],
              "kv_lengths": spec["kv"], "q_lengths": spec["q"], "seed": spec["seed"],
              "checks": ["run-to-run", "alone vs batch", "batch order", "dense vs varlen", "prefill vs decode", "launch paths",
                         "float64 reference (f32, 1e-4)"]}
    if "grids" in spec:
        result["grids"] = spec["grids"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
